package dev.muster.jobs.jobplugins;

import static java.util.Objects.requireNonNull;

/**
 * An ssh key pair for a job. {@link #toString()} never shows the private key.
 *
 * @param privateKey PEM text
 * @param publicKey one {@code authorized_keys} line, {@code ssh-rsa AAAA...}
 */
public record SshKeyPair(String privateKey, String publicKey) {
    public SshKeyPair {
        requireNonNull(privateKey, "privateKey is null");
        requireNonNull(publicKey, "publicKey is null");
    }

    @Override
    public String toString() {
        return "SshKeyPair{privateKey=<redacted>, publicKey=" + publicKey.strip() + "}";
    }
}
