package io.quotaflow.status;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * The path of {@code GET /tickets/{id}}: the id is one path segment, percent-encoded (UTF-8), so an
 * id may hold any character intake accepts, {@code /} included ({@code a/b} is
 * {@code /tickets/a%2Fb}). Unreserved characters ({@code A-Z a-z 0-9 - . _ ~}) stay as they are,
 * except that an id of only dots is encoded, which a path would otherwise resolve.
 */
public final class TicketPaths {

    /** The path prefix. */
    public static final String PREFIX = "/tickets/";

    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private TicketPaths() {
    }

    /** {@code /tickets/<id, percent-encoded>}. */
    public static String of(String id) {
        return PREFIX + encode(id);
    }

    /** {@code id} as one path segment. */
    public static String encode(String id) {
        boolean dots = id.chars().allMatch(c -> c == '.');
        StringBuilder sb = new StringBuilder();
        for (byte b : id.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if (!dots && (c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~')) {
                sb.append((char) c);
            } else {
                sb.append('%').append(HEX[c >> 4]).append(HEX[c & 0xf]);
            }
        }
        return sb.toString();
    }

    /**
     * The id in a raw (still encoded) request path, if the path is {@code /tickets/} and one non-empty
     * segment whose percent-escapes are well formed. {@code +} is a plus, not a space.
     */
    public static Optional<String> idOf(String rawPath) {
        if (rawPath == null || !rawPath.startsWith(PREFIX) || rawPath.length() == PREFIX.length()
                || rawPath.indexOf('/', PREFIX.length()) >= 0) {
            return Optional.empty();
        }
        String segment = rawPath.substring(PREFIX.length());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < segment.length(); i++) {
            char c = segment.charAt(i);
            if (c != '%') {
                out.writeBytes(String.valueOf(c).getBytes(StandardCharsets.UTF_8));
                continue;
            }
            if (i + 2 >= segment.length() || Character.digit(segment.charAt(i + 1), 16) < 0 || Character.digit(segment.charAt(i + 2), 16) < 0) {
                return Optional.empty();
            }
            out.write(Character.digit(segment.charAt(i + 1), 16) << 4 | Character.digit(segment.charAt(i + 2), 16));
            i += 2;
        }
        String id = out.toString(StandardCharsets.UTF_8);
        return id.isEmpty() ? Optional.empty() : Optional.of(id);
    }
}
