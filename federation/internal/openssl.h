#pragma once

// OpenSSL plumbing shared by the certificate code and the TLS layer: owning pointers and the
// error queue as text. Only federation/*.cpp include this (OpenSSL is linked privately).

#include <QByteArray>
#include <QString>

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/evp.h>
#include <openssl/x509.h>

#include <memory>

namespace Federation::Internal {

template<auto Free> struct OpenSslDeleter
{
    template<typename T> void operator()(T *p) const { Free(p); }
};
using PkeyPtr = std::unique_ptr<EVP_PKEY, OpenSslDeleter<EVP_PKEY_free>>;
using X509Ptr = std::unique_ptr<X509, OpenSslDeleter<X509_free>>;
using BioPtr = std::unique_ptr<BIO, OpenSslDeleter<BIO_free_all>>;
using BignumPtr = std::unique_ptr<BIGNUM, OpenSslDeleter<BN_free>>;

// The OpenSSL error queue as one line (and clears it); "unknown error" when empty.
QString takeOpenSslErrors();

// A read-only memory BIO over bytes that must outlive it.
BioPtr memoryBio(const QByteArray &bytes);
// Everything written to a memory BIO.
QByteArray bioContents(BIO *bio);

// SubjectPublicKeyInfo DER of a certificate given as DER; empty when it does not parse.
QByteArray subjectPublicKeyInfoDer(const QByteArray &certificateDer);
QByteArray subjectPublicKeyInfoDer(X509 *certificate);

} // namespace Federation::Internal
