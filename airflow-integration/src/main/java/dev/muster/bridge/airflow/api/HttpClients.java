package dev.muster.bridge.airflow.api;

import static java.lang.String.format;

import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.Collection;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The JDK HTTP client the generated clients run on: the connect timeout, and for https either the
 * JVM's trust or the PEM certificates of {@value AirflowSettings#CA_FILE} (an Airflow behind a private CA).
 */
final class HttpClients {
    private HttpClients() {}

    static HttpClient.Builder builder(AirflowSettings settings) {
        HttpClient.Builder builder = HttpClient.newBuilder()
                // HTTP/1.1: over plain http the JDK client's default HTTP/2 sends an h2c upgrade, which
                // Airflow 3's uvicorn refuses ("Unsupported upgrade request") and then reads the POST body
                // of /auth/token as garbage (a 500); seen with the real Airflow 3.3.2
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(settings.connectTimeout())
                .followRedirects(HttpClient.Redirect.NEVER);
        settings.caFile().ifPresent(file -> builder.sslContext(trusting(file)));
        return builder;
    }

    private static SSLContext trusting(Path caFile) {
        try (InputStream in = Files.newInputStream(caFile)) {
            Collection<? extends Certificate> certificates = CertificateFactory.getInstance("X.509").generateCertificates(in);
            if (certificates.isEmpty()) {
                throw new IllegalArgumentException(format("%s: no PEM certificate in '%s'", AirflowSettings.CA_FILE, caFile));
            }
            KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
            trust.load(null, null);
            int index = 0;
            for (Certificate certificate : certificates) {
                trust.setCertificateEntry("airflow-ca-" + index++, certificate);
            }
            TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            factory.init(trust);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, factory.getTrustManagers(), null);
            return context;
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalArgumentException(format("%s: cannot read certificates from '%s': %s", AirflowSettings.CA_FILE, caFile,
                    e.getMessage()), e);
        }
    }
}
