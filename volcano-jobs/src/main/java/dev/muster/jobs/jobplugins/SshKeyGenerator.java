package dev.muster.jobs.jobplugins;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.security.interfaces.RSAPublicKey;
import java.util.Base64;

/**
 * Makes the ssh key pair of a job: the randomness seam of the job controller. {@link #RSA} makes
 * 2048-bit RSA keys (PKCS#8 PEM, which OpenSSH reads); tests pass a fixed pair.
 */
@FunctionalInterface
public interface SshKeyGenerator {
    SshKeyGenerator RSA = SshKeyGenerator::generateRsa;

    SshKeyPair generate();

    static SshKeyGenerator fixed(SshKeyPair pair) {
        return () -> pair;
    }

    private static SshKeyPair generateRsa() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048, new SecureRandom());
            KeyPair pair = generator.generateKeyPair();
            String pem = "-----BEGIN PRIVATE KEY-----\n"
                    + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(pair.getPrivate().getEncoded())
                    + "\n-----END PRIVATE KEY-----\n";
            return new SshKeyPair(pem, openSshPublicKey((RSAPublicKey) pair.getPublic()));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("BUG: every JVM has RSA", e);
        }
    }

    /** {@code ssh-rsa <base64 of the wire format>}, as {@code ssh-keygen} writes it. */
    static String openSshPublicKey(RSAPublicKey key) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            writeBytes(out, "ssh-rsa".getBytes(StandardCharsets.US_ASCII));
            writeBytes(out, key.getPublicExponent().toByteArray());
            writeBytes(out, key.getModulus().toByteArray());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return "ssh-rsa " + Base64.getEncoder().encodeToString(bytes.toByteArray()) + "\n";
    }

    private static void writeBytes(DataOutputStream out, byte[] value) throws IOException {
        out.writeInt(value.length);
        out.write(value);
    }
}
