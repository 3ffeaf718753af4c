package io.quotaflow.simulator;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * Checks the bearer key of a request against the accepted keys (any non-empty key when there are
 * none), in constant time per accepted key.
 */
final class Authenticator {

    private static final String BEARER = "Bearer ";

    private final List<byte[]> acceptedKeys;

    Authenticator(Collection<String> acceptedKeys) {
        this.acceptedKeys = acceptedKeys.stream().map(k -> k.getBytes(StandardCharsets.UTF_8)).toList();
    }

    /** The key of an {@code Authorization} header value (null when absent) if it is accepted. */
    Optional<String> authenticate(String authorization) {
        if (authorization == null) {
            return Optional.empty();
        }
        String header = authorization.strip();
        if (header.length() < BEARER.length() || !header.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            return Optional.empty();
        }
        String key = header.substring(BEARER.length()).strip();
        if (key.isEmpty()) {
            return Optional.empty();
        }
        if (acceptedKeys.isEmpty()) {
            return Optional.of(key);
        }
        byte[] presented = key.getBytes(StandardCharsets.UTF_8);
        boolean match = false;
        for (byte[] accepted : acceptedKeys) {
            match |= MessageDigest.isEqual(presented, accepted);
        }
        return match ? Optional.of(key) : Optional.empty();
    }
}
