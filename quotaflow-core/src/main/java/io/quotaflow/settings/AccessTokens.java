package io.quotaflow.settings;

import io.quotaflow.records.TicketKey;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The bearer tokens the HTTP API accepts and whose each one is ({@code http.tokens-file}, one
 * {@code TOKEN TENANT} line each, {@value #OPERATOR} for an operator; {@code http.auth-token-file}'s
 * token is an operator's). Only the SHA-256 digest of each token is kept: a presented token is
 * hashed and looked up by its digest, so the table holds nothing that opens the API, and a look-up's
 * time depends on a digest, not on how much of a token an attacker guessed. Immutable; bounded
 * ({@value #MAX_TOKENS} tokens, {@value #MAX_FILE_BYTES} bytes of file). Problems are
 * {@link IllegalArgumentException}s naming the line, never its token.
 */
public final class AccessTokens {

    /** The tenant of an operator token: every tenant's tickets, and {@code /status}. */
    public static final String OPERATOR = "*";
    /** Most tokens a file may hold. */
    public static final int MAX_TOKENS = 10_000;
    /** Largest tokens file read. */
    public static final int MAX_FILE_BYTES = 1 << 20;
    /** The shortest token accepted: a guessable one guards nothing. */
    public static final int MIN_TOKEN_LENGTH = 16;

    private static final AccessTokens NONE = new AccessTokens(Map.of());

    /** Tenant by the hex SHA-256 digest of its token. */
    private final Map<String, String> tenantByDigest;

    private AccessTokens(Map<String, String> tenantByDigest) {
        this.tenantByDigest = Map.copyOf(tenantByDigest);
    }

    /** No token: the API is open. */
    public static AccessTokens none() {
        return NONE;
    }

    /** {@code token} as the one operator token ({@code http.auth-token-file}). */
    public static AccessTokens operator(Secret token) {
        return new AccessTokens(Map.of(hex(digest(token.reveal())), OPERATOR));
    }

    /** The tokens file {@code file}, read now. */
    public static AccessTokens read(Path file) {
        try {
            if (Files.size(file) > MAX_FILE_BYTES) {
                throw new IllegalArgumentException("http.tokens-file holds more than " + MAX_FILE_BYTES + " bytes");
            }
            return parse(Files.readString(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new IllegalArgumentException("http.tokens-file " + file + " cannot be read (" + e.getClass().getSimpleName() + ")", e);
        }
    }

    /** The tokens of a file's {@code text}: blank lines and lines starting with {@code #} are skipped. */
    public static AccessTokens parse(String text) {
        Map<String, String> tokens = new LinkedHashMap<>();
        String[] lines = text.split("\\R");
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String[] parts = line.split("[ \\t]+");
            String where = "http.tokens-file line " + (i + 1);
            if (parts.length != 2) {
                throw new IllegalArgumentException(where + " must be TOKEN TENANT (two fields), got " + parts.length + " fields");
            }
            checkToken(parts[0], where);
            String tenant = parts[1];
            if (!OPERATOR.equals(tenant) && !TicketKey.validTenant(tenant)) {
                throw new IllegalArgumentException(where + ": the tenant must be * or 1 to " + TicketKey.MAX_TENANT_LENGTH
                        + " characters without ':'");
            }
            if (tokens.put(hex(digest(parts[0])), tenant) != null) {
                throw new IllegalArgumentException(where + " repeats the token of an earlier line");
            }
            if (tokens.size() > MAX_TOKENS) {
                throw new IllegalArgumentException("http.tokens-file holds more than " + MAX_TOKENS + " tokens");
            }
        }
        return new AccessTokens(tokens);
    }

    /** A token is long enough to guard and of visible ASCII; said without the token. */
    public static void checkToken(String token, String where) {
        if (token.length() < MIN_TOKEN_LENGTH) {
            throw new IllegalArgumentException(where + ": a token needs at least " + MIN_TOKEN_LENGTH
                    + " characters (e.g. openssl rand -hex 32), this one has " + token.length());
        }
        if (!token.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
            throw new IllegalArgumentException(where + ": a token is visible ASCII characters, no spaces");
        }
    }

    /** These tokens and {@code other}'s; a token in both keeps {@code other}'s tenant. */
    public AccessTokens and(AccessTokens other) {
        Map<String, String> all = new LinkedHashMap<>(tenantByDigest);
        all.putAll(other.tenantByDigest);
        return new AccessTokens(all);
    }

    /** Whether any token is configured: the guarded endpoints then need one. */
    public boolean required() {
        return !tenantByDigest.isEmpty();
    }

    /** The tenant ({@value #OPERATOR} for an operator) of {@code token}, if it is one of these. */
    public Optional<String> tenantOf(String token) {
        return Optional.ofNullable(tenantByDigest.get(hex(digest(token))));
    }

    /** The digests of {@code tenant}'s tokens: the keys a peer's signature for that tenant is checked with. */
    public List<byte[]> digestsOf(String tenant) {
        List<byte[]> out = new ArrayList<>();
        tenantByDigest.forEach((d, t) -> {
            if (t.equals(tenant)) {
                out.add(HexFormat.of().parseHex(d));
            }
        });
        return out;
    }

    public int size() {
        return tenantByDigest.size();
    }

    /** The SHA-256 digest of {@code token}. */
    public static byte[] digest(String token) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    private static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }

    /** How many tokens, never which. */
    @Override
    public String toString() {
        return "AccessTokens[" + tenantByDigest.size() + " tokens]";
    }
}
