package dev.muster.peers;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;

/**
 * A user that kube-apiserver knows from its static token file ({@code --token-auth-file}): one
 * CSV line {@code token,user,uid,"group1,group2"}.
 */
public record TokenUser(String name, String token, List<String> groups) {
    private static final SecureRandom RANDOM = new SecureRandom();

    public TokenUser {
        requireNonNull(name, "name is null");
        requireNonNull(token, "token is null");
        groups = ImmutableList.copyOf(requireNonNull(groups, "groups is null"));
        checkArgument(name.matches("[a-z0-9:.-]+"), "user name must be a simple name: %s", name);
        checkArgument(groups.stream().allMatch(group -> group.matches("[a-z0-9:.-]+")), "groups must be simple names: %s", groups);
    }

    /** A user with a fresh random token. */
    public static TokenUser withRandomToken(String name, List<String> groups) {
        byte[] secret = new byte[24];
        RANDOM.nextBytes(secret);
        return new TokenUser(name, HexFormat.of().formatHex(secret), groups);
    }

    String tokenFileLine() {
        String line = token + "," + name + "," + name;
        return groups.isEmpty() ? line : line + ",\"" + String.join(",", groups) + "\"";
    }

    @Override
    public String toString() {
        // the token stays out of logs and failure messages
        return "TokenUser[name=" + name + ", groups=" + groups + "]";
    }
}
