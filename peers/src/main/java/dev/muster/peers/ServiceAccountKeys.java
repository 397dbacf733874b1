package dev.muster.peers;

import static java.nio.charset.StandardCharsets.US_ASCII;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/**
 * The RSA key pair kube-apiserver signs service-account tokens with ({@code
 * --service-account-signing-key-file}) and verifies them with ({@code --service-account-key-file}),
 * written as PEM: PKCS #8 for the private key, X.509 SubjectPublicKeyInfo for the public one.
 */
record ServiceAccountKeys(Path privateKey, Path publicKey) {
    static ServiceAccountKeys generate(Path directory) throws IOException {
        KeyPair pair;
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            pair = generator.generateKeyPair();
        }
        catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("BUG: every JDK has RSA", e);
        }
        Path privateKey = directory.resolve("service-account.key");
        Path publicKey = directory.resolve("service-account.pub");
        Files.writeString(privateKey, pem("PRIVATE KEY", pair.getPrivate().getEncoded()), US_ASCII);
        Files.writeString(publicKey, pem("PUBLIC KEY", pair.getPublic().getEncoded()), US_ASCII);
        return new ServiceAccountKeys(privateKey, publicKey);
    }

    private static String pem(String type, byte[] der) {
        String body = Base64.getMimeEncoder(64, "\n".getBytes(US_ASCII)).encodeToString(der);
        return "-----BEGIN " + type + "-----\n" + body + "\n-----END " + type + "-----\n";
    }
}
