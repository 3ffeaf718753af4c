package io.quotaflow.simulator;

import java.nio.charset.StandardCharsets;

/**
 * The one {@code multipart/form-data} field the simulator's file upload reads ({@code POST /v1/files}'s
 * {@code file}). Hand-written on purpose: the simulator runs on the JDK's HTTP server with Jackson and the token
 * counter only, and pulling a servlet stack's multipart parser in for one field of well-formed test uploads would
 * outweigh these few lines.
 */
final class Multipart {

    private Multipart() {
    }

    /** The boundary of a {@code multipart/form-data} content type, or null. */
    static String boundary(String contentType) {
        if (contentType == null || !contentType.toLowerCase(java.util.Locale.ROOT).startsWith("multipart/form-data")) {
            return null;
        }
        for (String param : contentType.split(";")) {
            String p = param.strip();
            if (p.toLowerCase(java.util.Locale.ROOT).startsWith("boundary=")) {
                String b = p.substring("boundary=".length());
                return b.startsWith("\"") && b.endsWith("\"") && b.length() > 1 ? b.substring(1, b.length() - 1) : b;
            }
        }
        return null;
    }

    /** The content of part {@code name} of a multipart body, or null. */
    static byte[] part(byte[] body, String boundary, String name) {
        byte[] delimiter = ("--" + boundary).getBytes(StandardCharsets.ISO_8859_1);
        int at = indexOf(body, delimiter, 0);
        while (at >= 0) {
            int headersStart = at + delimiter.length;
            if (headersStart + 2 <= body.length && body[headersStart] == '-' && body[headersStart + 1] == '-') {
                return null;
            }
            int headersEnd = indexOf(body, "\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1), headersStart);
            if (headersEnd < 0) {
                return null;
            }
            int next = indexOf(body, ("\r\n--" + boundary).getBytes(StandardCharsets.ISO_8859_1), headersEnd + 4);
            if (next < 0) {
                return null;
            }
            String headers = new String(body, headersStart, headersEnd - headersStart, StandardCharsets.ISO_8859_1);
            if (headers.contains("name=\"" + name + "\"")) {
                byte[] out = new byte[next - headersEnd - 4];
                System.arraycopy(body, headersEnd + 4, out, 0, out.length);
                return out;
            }
            at = next + 2;
        }
        return null;
    }

    private static int indexOf(byte[] haystack, byte[] needle, int from) {
        outer:
        for (int i = Math.max(0, from); i <= haystack.length - needle.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
