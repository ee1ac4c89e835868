#pragma once

#include <QImage>
#include <QString>

#include <expected>

namespace App {

// A QR code of text (UTF-8, error correction M) drawn into a QImage: black modules on white with
// the 4-module quiet zone the standard asks for, each module `scale` pixels. libqrencode makes
// the module matrix (docs/decisions.md says why that library). An error when the text does not
// fit a QR code (about 2,300 bytes at level M) or the library fails.
std::expected<QImage, QString> qrCodeImage(const QString &text, int scale = 4);

} // namespace App
