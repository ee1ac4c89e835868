#include "app/tray/pages/qrcodeimage.h"

#include <QCoreApplication>

#include <qrencode.h>

#include <memory>

namespace App {

namespace {

constexpr int kQuietZone = 4; // modules of white around the code (ISO/IEC 18004)
constexpr int kMaxScale = 32;

struct QrFree
{
    void operator()(QRcode *code) const { QRcode_free(code); }
};

} // namespace

std::expected<QImage, QString> qrCodeImage(const QString &text, int scale)
{
    if (text.isEmpty())
        return std::unexpected(QCoreApplication::translate("App::QrCode", "Nothing to encode"));
    scale = std::clamp(scale, 1, kMaxScale);
    const QByteArray utf8 = text.toUtf8();
    // Version 0: the smallest that fits; 8-bit mode keeps the text exactly as given.
    const std::unique_ptr<QRcode, QrFree> code(QRcode_encodeString8bit(utf8.constData(), 0, QR_ECLEVEL_M));
    if (!code)
        return std::unexpected(QCoreApplication::translate(
            "App::QrCode", "The text does not fit in a QR code (%n bytes)", nullptr, int(utf8.size())));
    const int modules = code->width;
    const int side = (modules + 2 * kQuietZone) * scale;
    QImage image(side, side, QImage::Format_Mono);
    image.setColor(0, qRgb(255, 255, 255));
    image.setColor(1, qRgb(0, 0, 0));
    image.fill(0);
    for (int y = 0; y < modules; ++y) {
        for (int x = 0; x < modules; ++x) {
            // Bit 0 of each byte: the module is dark (qrencode.h).
            if (!(code->data[y * modules + x] & 1))
                continue;
            for (int dy = 0; dy < scale; ++dy) {
                for (int dx = 0; dx < scale; ++dx)
                    image.setPixel((x + kQuietZone) * scale + dx, (y + kQuietZone) * scale + dy, 1);
            }
        }
    }
    return image;
}

} // namespace App
