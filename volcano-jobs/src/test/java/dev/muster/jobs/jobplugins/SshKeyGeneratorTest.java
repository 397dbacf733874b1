package dev.muster.jobs.jobplugins;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.KeyFactory;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import org.junit.jupiter.api.Test;

class SshKeyGeneratorTest {
    @Test
    void generatedPairIsAnOpenSshPublicKeyAndAMatchingPkcs8PrivateKey() throws Exception {
        SshKeyPair pair = SshKeyGenerator.RSA.generate();

        assertThat(pair.publicKey()).startsWith("ssh-rsa ").endsWith("\n");
        ByteBuffer wire = ByteBuffer.wrap(Base64.getDecoder().decode(pair.publicKey().substring("ssh-rsa ".length()).strip()));
        assertThat(new String(next(wire), StandardCharsets.US_ASCII)).isEqualTo("ssh-rsa");
        byte[] exponent = next(wire);
        byte[] modulus = next(wire);
        String pem = pair.privateKey().replace("-----BEGIN PRIVATE KEY-----", "").replace("-----END PRIVATE KEY-----", "");
        RSAPrivateCrtKey key = (RSAPrivateCrtKey) KeyFactory.getInstance("RSA")
                .generatePrivate(new PKCS8EncodedKeySpec(Base64.getMimeDecoder().decode(pem)));
        assertThat(new BigInteger(modulus)).isEqualTo(key.getModulus());
        assertThat(new BigInteger(exponent)).isEqualTo(key.getPublicExponent());
        assertThat(key.getModulus().bitLength()).isEqualTo(2048);
    }

    @Test
    void toStringNeverShowsThePrivateKey() {
        SshKeyPair pair = new SshKeyPair("-----BEGIN PRIVATE KEY-----\nsecret\n-----END PRIVATE KEY-----\n", "ssh-rsa AAAA\n");

        assertThat(pair.toString()).doesNotContain("secret").contains("<redacted>");
    }

    private static byte[] next(ByteBuffer wire) {
        byte[] value = new byte[wire.getInt()];
        wire.get(value);
        return value;
    }
}
