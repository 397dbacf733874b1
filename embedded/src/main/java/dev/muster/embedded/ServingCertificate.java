package dev.muster.embedded;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * The certificates the embedded server serves HTTPS with, made at each start as kube-apiserver makes
 * its own when it is given none ({@code --cert-dir}): a CA of its own ({@code localhost-ca@TIME}) and a
 * serving certificate it signed ({@code localhost@TIME}) for {@code 127.0.0.1} and {@code localhost}.
 * The kubeconfig {@code muster up} writes carries the CA, so every client that reads a kubeconfig
 * (kubectl, client-go, the Python client, fabric8, Spark) verifies the server as it would a cluster's.
 * P-256 keys, as the JDK, Go's crypto/tls and OpenSSL all accept, and quick to make. BouncyCastle does
 * the X.509 work because the JDK has no public API to issue a certificate.
 */
final class ServingCertificate {
    private static final Duration VALIDITY = Duration.ofDays(365);
    /** A client whose clock is a little behind still accepts a certificate made this instant. */
    private static final Duration BACKDATE = Duration.ofHours(1);
    private static final String SIGNATURE = "SHA256withECDSA";

    private final X509Certificate authority;
    private final X509Certificate serving;
    private final String servingKeyPem;

    private ServingCertificate(X509Certificate authority, X509Certificate serving, String servingKeyPem) {
        this.authority = requireNonNull(authority, "authority is null");
        this.serving = requireNonNull(serving, "serving is null");
        this.servingKeyPem = requireNonNull(servingKeyPem, "servingKeyPem is null");
    }

    /** A new CA and a serving certificate for 127.0.0.1 and localhost, valid for a year from {@code clock}'s now. */
    static ServingCertificate generate(Clock clock) {
        requireNonNull(clock, "clock is null");
        Instant now = clock.instant();
        SecureRandom random = new SecureRandom();
        try {
            KeyPair authorityKey = keyPair(random);
            KeyPair servingKey = keyPair(random);
            JcaX509ExtensionUtils extensions = new JcaX509ExtensionUtils();
            X500Name authorityName = new X500Name("CN=localhost-ca@" + now.getEpochSecond());
            X509v3CertificateBuilder authorityBuilder = new JcaX509v3CertificateBuilder(authorityName, serial(random),
                    Date.from(now.minus(BACKDATE)), Date.from(now.plus(VALIDITY)), authorityName, authorityKey.getPublic())
                    .addExtension(Extension.basicConstraints, true, new BasicConstraints(true))
                    .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.digitalSignature))
                    .addExtension(Extension.subjectKeyIdentifier, false, extensions.createSubjectKeyIdentifier(authorityKey.getPublic()));
            X509Certificate authority = certificate(authorityBuilder, authorityKey);
            X509v3CertificateBuilder servingBuilder = new JcaX509v3CertificateBuilder(authorityName, serial(random),
                    Date.from(now.minus(BACKDATE)), Date.from(now.plus(VALIDITY)),
                    new X500Name("CN=localhost@" + now.getEpochSecond()), servingKey.getPublic())
                    .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
                    .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature))
                    .addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth))
                    .addExtension(Extension.subjectAlternativeName, false, new GeneralNames(new GeneralName[] {
                        new GeneralName(GeneralName.iPAddress, "127.0.0.1"), new GeneralName(GeneralName.dNSName, "localhost")}))
                    .addExtension(Extension.subjectKeyIdentifier, false, extensions.createSubjectKeyIdentifier(servingKey.getPublic()))
                    .addExtension(Extension.authorityKeyIdentifier, false, extensions.createAuthorityKeyIdentifier(authority));
            X509Certificate serving = certificate(servingBuilder, authorityKey);
            return new ServingCertificate(authority, serving, pem(new JcaPKCS8Generator(servingKey.getPrivate(), null)));
        } catch (GeneralSecurityException | IOException | OperatorCreationException e) {
            throw new IllegalStateException("BUG: every JDK issues P-256 certificates", e);
        }
    }

    /** The CA, PEM-encoded, for a kubeconfig's {@code certificate-authority-data}. */
    String authorityPem() {
        return pem(authority);
    }

    /** The serving certificate, PEM-encoded. */
    String servingPem() {
        return pem(serving);
    }

    /** The serving certificate's private key, PEM-encoded PKCS #8. */
    String servingKeyPem() {
        return servingKeyPem;
    }

    /** {@link #authorityPem()} as a kubeconfig holds it: base64 of the PEM. */
    String authorityData() {
        return Base64.getEncoder().encodeToString(authorityPem().getBytes(StandardCharsets.US_ASCII));
    }

    /** A TLS context that trusts this CA alone, for JDK clients in tests and tools. */
    SSLContext trustingContext() {
        try {
            KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
            trust.load(null, null);
            trust.setCertificateEntry("muster-up", authority);
            TrustManagerFactory trustManagers = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trustManagers.init(trust);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, trustManagers.getTrustManagers(), null);
            return context;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("BUG: the JDK's default key store takes a certificate", e);
        }
    }

    private static KeyPair keyPair(SecureRandom random) throws GeneralSecurityException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"), random);
        return generator.generateKeyPair();
    }

    /** A positive serial of 127 random bits, as RFC 5280 asks for at most 20 octets. */
    private static BigInteger serial(SecureRandom random) {
        return new BigInteger(127, random).add(BigInteger.ONE);
    }

    private static X509Certificate certificate(X509v3CertificateBuilder builder, KeyPair signer)
            throws OperatorCreationException, GeneralSecurityException {
        return new JcaX509CertificateConverter().getCertificate(builder.build(new JcaContentSignerBuilder(SIGNATURE).build(signer.getPrivate())));
    }

    private static String pem(Object object) {
        StringWriter text = new StringWriter();
        try (JcaPEMWriter writer = new JcaPEMWriter(text)) {
            writer.writeObject(object);
        } catch (IOException e) {
            throw new UncheckedIOException("BUG: writing to a string fails", e);
        }
        return text.toString();
    }
}
