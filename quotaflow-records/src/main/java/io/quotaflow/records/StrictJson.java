package io.quotaflow.records;

import com.fasterxml.jackson.core.ErrorReportConfiguration;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;

/**
 * Reads one record value as exactly one strict JSON value, for intake ({@link TicketParser}) only.
 *
 * <p>It has its own mapper rather than {@link Json#MAPPER}: the shared mapper also reads model
 * answers and configuration, whose leniency this class must not change. On top of Jackson's
 * defaults (which stay as they are, in particular {@code StreamReadConstraints}: nesting depth
 * 1000, number length 1000, ...) it rejects:
 * <ul>
 *   <li>bytes that are not well-formed UTF-8 (RFC 3629), checked before Jackson sees them, because
 *       Jackson decodes overlong forms ({@code C0 80} becomes U+0000) and code points above
 *       U+10FFFF without complaint, and auto-detects UTF-16 and UTF-32 (a UTF-8 byte-order mark is
 *       tolerated, as RFC 8259 allows);</li>
 *   <li>anything but whitespace after the first value ({@code {..} {..}}, trailing garbage);</li>
 *   <li>duplicate keys in any object, at any depth
 *       ({@link StreamReadFeature#STRICT_DUPLICATE_DETECTION});</li>
 *   <li>unpaired surrogates, which JSON's {@code \}{@code uD800} escapes can produce although no
 *       UTF-8 text can hold them, in any string value or field name at any depth.</li>
 * </ul>
 * Problems are short sentences that echo at most {@value #MAX_ECHO} characters of the input,
 * control characters and surrogates escaped as {@code \}{@code uXXXX}.
 */
final class StrictJson {

    /** Most characters of the input (a key, a path, a token) a problem description repeats. */
    static final int MAX_ECHO = 60;
    /** Most characters of a Jackson error message a problem description repeats. */
    static final int MAX_DETAIL = 100;

    static final String EMPTY = "empty value";
    static final String NOT_JSON = "not JSON";
    static final String INVALID_UTF8 = "invalid UTF-8 byte sequence";
    static final String NOT_UTF8 = "not UTF-8 (UTF-16 or UTF-32 are not accepted)";
    static final String MORE_THAN_ONE_VALUE = "more than one JSON value";
    static final String TRAILING_DATA = "trailing data after the JSON value";
    static final String UNPAIRED_SURROGATE = "invalid Unicode (unpaired surrogate)";

    /** The intake mapper: Jackson's defaults plus strict duplicate detection, short error messages. */
    private static final ObjectMapper MAPPER = JsonMapper.builder(JsonFactory.builder()
                    .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                    .errorReportConfiguration(ErrorReportConfiguration.builder()
                            .maxErrorTokenLength(MAX_ECHO)
                            .maxRawContentLength(0)
                            .build())
                    .build())
            // trees only; a duplicate would already have failed in the parser, this is a second net
            .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
            // FAIL_ON_TRAILING_TOKENS is not used: read() checks for trailing data itself, after the
            // value, so that it can tell "a second value" from "garbage" in its message
            .build();

    private StrictJson() {
    }

    /** Either the value read, or why there is none. */
    record Result(JsonNode value, String problem) {

        static Result accepted(JsonNode value) {
            return new Result(value, null);
        }

        static Result rejected(String problem) {
            return new Result(null, problem);
        }

        boolean ok() {
            return problem == null;
        }
    }

    /** Reads {@code bytes} as exactly one JSON value (of any type) with no trailing data. */
    static Result read(byte[] bytes) {
        if (bytes == null || bytes.length == 0) {
            return Result.rejected(EMPTY);
        }
        if (invalidUtf8At(bytes) >= 0) {
            return Result.rejected(INVALID_UTF8);
        }
        for (int i = 0; i < Math.min(4, bytes.length); i++) {
            if (bytes[i] == 0) { // what Jackson's encoding detection takes for UTF-16 or UTF-32
                return Result.rejected(NOT_UTF8);
            }
        }
        try (JsonParser parser = MAPPER.createParser(bytes)) {
            JsonNode value;
            try {
                if (parser.nextToken() == null) {
                    return Result.rejected(EMPTY); // whitespace only
                }
                value = MAPPER.readTree(parser);
            } catch (StreamConstraintsException e) {
                return Result.rejected("JSON limit exceeded: " + detail(e));
            } catch (JsonProcessingException e) {
                String message = e.getOriginalMessage();
                if (message != null && message.startsWith("Duplicate field")) {
                    // the parser has just set the duplicate as its current name
                    return Result.rejected("duplicate key '" + path(parser.getParsingContext()) + "'");
                }
                if (message != null && message.contains("surrogate") && message.contains("field name")) {
                    // Jackson checks escapes in names itself (not in values); the name is not known yet
                    String where = path(parser.getParsingContext().getParent());
                    return Result.rejected(UNPAIRED_SURROGATE + " in a field name"
                            + (where.isEmpty() ? "" : " in '" + where + "'"));
                }
                return Result.rejected(NOT_JSON + ": " + detail(e));
            }
            try {
                if (parser.nextToken() != null) {
                    return Result.rejected(MORE_THAN_ONE_VALUE);
                }
            } catch (JsonProcessingException e) {
                return Result.rejected(TRAILING_DATA);
            }
            String unicode = unpairedSurrogate(value);
            return unicode == null ? Result.accepted(value) : Result.rejected(unicode);
        } catch (IOException e) { // not from a byte array; kept for the compiler
            return Result.rejected(NOT_JSON);
        }
    }

    /**
     * Index of the first byte that does not start a well-formed UTF-8 sequence (RFC 3629, table 3-7
     * of the Unicode standard: no overlong forms, no surrogates, nothing above U+10FFFF), or -1.
     */
    static int invalidUtf8At(byte[] bytes) {
        int n = bytes.length;
        int i = 0;
        while (i < n) {
            int b = bytes[i] & 0xFF;
            if (b < 0x80) {
                i++;
                continue;
            }
            int continuation; // bytes after the lead byte
            int min = 0x80;   // range of the first of them
            int max = 0xBF;
            if (b >= 0xC2 && b <= 0xDF) {
                continuation = 1;
            } else if (b == 0xE0) {
                continuation = 2;
                min = 0xA0; // else overlong
            } else if (b == 0xED) {
                continuation = 2;
                max = 0x9F; // else a surrogate
            } else if (b >= 0xE1 && b <= 0xEF) {
                continuation = 2;
            } else if (b == 0xF0) {
                continuation = 3;
                min = 0x90; // else overlong
            } else if (b >= 0xF1 && b <= 0xF3) {
                continuation = 3;
            } else if (b == 0xF4) {
                continuation = 3;
                max = 0x8F; // else above U+10FFFF
            } else {
                return i; // a continuation byte, C0, C1 or F5..FF
            }
            if (i + continuation >= n) {
                return i;
            }
            int first = bytes[i + 1] & 0xFF;
            if (first < min || first > max) {
                return i;
            }
            for (int k = 2; k <= continuation; k++) {
                if ((bytes[i + k] & 0xC0) != 0x80) {
                    return i;
                }
            }
            i += continuation + 1;
        }
        return -1;
    }

    /** Whether {@code s} is well-formed UTF-16: every surrogate is half of a high-low pair. */
    static boolean wellFormed(String s) {
        for (int i = 0, n = s.length(); i < n; i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return false;
            }
        }
        return true;
    }

    /** A container to look into, and how it was reached (for messages). */
    private record Frame(JsonNode node, Frame parent, String name, int index) {
    }

    /** The problem with the first unpaired surrogate found in {@code root}, or null. Iterative: no depth limit of its own. */
    private static String unpairedSurrogate(JsonNode root) {
        if (root.isTextual()) {
            return wellFormed(root.textValue()) ? null : UNPAIRED_SURROGATE + " in the value";
        }
        Deque<Frame> pending = new ArrayDeque<>();
        pending.push(new Frame(root, null, null, -1));
        while (!pending.isEmpty()) {
            Frame frame = pending.pop();
            if (frame.node.isObject()) {
                for (Map.Entry<String, JsonNode> field : frame.node.properties()) {
                    Frame child = new Frame(field.getValue(), frame, field.getKey(), -1);
                    if (!wellFormed(field.getKey())) {
                        return UNPAIRED_SURROGATE + " in field name '" + path(child) + "'";
                    }
                    String problem = check(child, pending);
                    if (problem != null) {
                        return problem;
                    }
                }
            } else if (frame.node.isArray()) {
                for (int i = 0; i < frame.node.size(); i++) {
                    String problem = check(new Frame(frame.node.get(i), frame, null, i), pending);
                    if (problem != null) {
                        return problem;
                    }
                }
            }
        }
        return null;
    }

    private static String check(Frame child, Deque<Frame> pending) {
        if (child.node.isTextual()) {
            return wellFormed(child.node.textValue()) ? null : UNPAIRED_SURROGATE + " in field '" + path(child) + "'";
        }
        if (child.node.isContainerNode() && !child.node.isEmpty()) {
            pending.push(child);
        }
        return null;
    }

    /** {@code metadata.tags[2]}, at most {@value #MAX_ECHO} characters, names escaped. */
    private static String path(Frame frame) {
        Deque<Frame> chain = new ArrayDeque<>();
        for (Frame f = frame; f != null && (f.name != null || f.index >= 0); f = f.parent) {
            chain.push(f);
        }
        StringBuilder path = new StringBuilder();
        for (Frame f : chain) {
            appendSegment(path, f.name, f.index);
        }
        return snippet(path.toString(), MAX_ECHO);
    }

    /** The path of the parser's current name in {@code context}, as {@link #path(Frame)} renders it. */
    private static String path(JsonStreamContext context) {
        Deque<JsonStreamContext> chain = new ArrayDeque<>();
        for (JsonStreamContext c = context; c != null && !c.inRoot(); c = c.getParent()) {
            chain.push(c);
        }
        StringBuilder path = new StringBuilder();
        for (JsonStreamContext c : chain) {
            if (c.inObject()) {
                appendSegment(path, c.getCurrentName() == null ? "?" : c.getCurrentName(), -1);
            } else {
                appendSegment(path, null, Math.max(0, c.getCurrentIndex()));
            }
        }
        return snippet(path.toString(), MAX_ECHO);
    }

    private static void appendSegment(StringBuilder path, String name, int index) {
        if (name != null) {
            if (!path.isEmpty()) {
                path.append('.');
            }
            path.append(name);
        } else {
            path.append('[').append(index).append(']');
        }
    }

    /**
     * Jackson's message without its location, the list of what it expected or the name of the
     * setting behind a limit: {@code Unrecognized token 'hello'}.
     */
    private static String detail(JsonProcessingException e) {
        String message = e.getOriginalMessage();
        if (message == null || message.isBlank()) {
            return e.getClass().getSimpleName();
        }
        int cut = message.indexOf('\n');
        if (cut >= 0) {
            message = message.substring(0, cut);
        }
        cut = message.indexOf(" (start marker at");
        if (cut >= 0) {
            message = message.substring(0, cut);
        }
        cut = message.indexOf("(JSON String");
        if (cut >= 0) {
            int colon = message.lastIndexOf(": ", cut);
            message = message.substring(0, colon >= 0 ? colon : cut);
        }
        message = message.replaceAll(", from `[^`]*`", "");
        return snippet(message.strip(), MAX_DETAIL);
    }

    /**
     * {@code s} cut to about {@code max} characters ({@code ...} marks a cut), with control
     * characters, line and paragraph separators and unpaired surrogates escaped as
     * {@code \}{@code uXXXX}, so that a message is one printable line.
     */
    static String snippet(String s, int max) {
        StringBuilder out = new StringBuilder(Math.min(s.length(), max) + 8);
        for (int i = 0, n = s.length(); i < n; i++) {
            if (out.length() >= max) {
                return out.append("...").toString();
            }
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
                out.append(c).append(s.charAt(++i));
            } else if (Character.isSurrogate(c) || Character.isISOControl(c) || c == '\u2028' || c == '\u2029') {
                out.append(String.format("\\u%04X", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }
}
