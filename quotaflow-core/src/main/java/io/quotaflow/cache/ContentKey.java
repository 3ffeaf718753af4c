package io.quotaflow.cache;

import io.quotaflow.settings.ModelSettings;
import io.quotaflow.llm.ModelItem;
import io.quotaflow.llm.PromptBuilder;
import io.quotaflow.ticket.WorkItem;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * What makes two tickets the same question to the model (docs/design.md, "Cache"): the SHA-256 of
 * their normalised subject and body together with the model, the closed sets and the prompt
 * version, as 64 lower-case hex digits.
 *
 * <p>Normalisation trims each text and collapses every run of Unicode white space to one space; a
 * missing text and a blank one are the same (the prompt leaves both out). Case, punctuation and
 * the order of the closed sets count (the prompt differs). Every part is written length-prefixed,
 * so no two different inputs run together into the same bytes: a subject {@code "a"} with no body
 * is another key than a body {@code "a"} with no subject. The key is the SHA-256 of the contract
 * (prompt version, model, categories, urgencies) and the {@link #contentHash content hash}, so the
 * text is hashed once per ticket whatever the routes.
 *
 * @param hex the key: 64 lower-case hex digits
 */
public record ContentKey(String hex) {

    /** Bumped when the encoding below changes: old entries then simply miss. */
    private static final String SCHEME = "quotaflow-content-key/1";
    private static final Pattern HEX = Pattern.compile("[0-9a-f]{64}");

    public ContentKey {
        Objects.requireNonNull(hex, "hex");
        if (!HEX.matcher(hex).matches()) {
            throw new IllegalArgumentException("a content key is 64 lower-case hex digits, got '" + hex + "'");
        }
    }

    /** The key of a held ticket, read from its bytes as the model sees it, under {@code model}'s contract. */
    public static ContentKey of(WorkItem item, ModelSettings model) {
        return of(ModelItem.ofTicketJson(item), model);
    }

    /** The key of a ticket as the model sees it, under {@code model}'s contract and the current prompt. */
    public static ContentKey of(ModelItem item, ModelSettings model) {
        return of(contentHash(item.subject(), item.body()), model);
    }

    /** The key of a content hash ({@link #contentHash}, e.g. computed once at intake) under {@code model}'s contract and prompt. */
    public static ContentKey of(String contentHash, ModelSettings model) {
        return of(contentHash, model.model(), model.categories(), model.urgencies(), PromptBuilder.PROMPT_VERSION);
    }

    /** The key of one subject and body (either may be null) asked of {@code model} with these sets and prompt version. */
    public static ContentKey of(String subject, String body, String model, List<String> categories, List<String> urgencies,
                                String promptVersion) {
        return of(contentHash(subject, body), model, categories, urgencies, promptVersion);
    }

    /** The key of a content hash asked of {@code model} with these sets and prompt version. */
    public static ContentKey of(String contentHash, String model, List<String> categories, List<String> urgencies,
                                String promptVersion) {
        Objects.requireNonNull(contentHash, "contentHash");
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(categories, "categories");
        Objects.requireNonNull(urgencies, "urgencies");
        Objects.requireNonNull(promptVersion, "promptVersion");
        return new ContentKey(digest(out -> {
            write(out, SCHEME);
            write(out, promptVersion);
            write(out, model);
            writeAll(out, categories);
            writeAll(out, urgencies);
            write(out, contentHash);
        }));
    }

    /**
     * This key within {@code tenant}'s own cache ({@code cache.scope=tenant}, the default): identical
     * text of two tenants then never shares an answer, a coalesced call or a timing.
     */
    public ContentKey forTenant(String tenant) {
        Objects.requireNonNull(tenant, "tenant");
        return new ContentKey(digest(out -> {
            write(out, SCHEME + "/tenant");
            write(out, tenant);
            write(out, hex);
        }));
    }

    /**
     * The content part alone: hex SHA-256 of the normalised subject and body, each length-prefixed
     * (so a subject {@code "a"} is not a body {@code "a"}). What intake can compute once per ticket.
     */
    public static String contentHash(String subject, String body) {
        return digest(out -> {
            write(out, normalise(subject));
            write(out, normalise(body));
        });
    }

    private interface Parts {
        void writeTo(Sink out);
    }

    /**
     * Feeds the digest directly, in the encoding a {@code DataOutputStream} would write (a length as
     * four big-endian bytes, then the UTF-8 bytes): nothing is buffered and copied on the way, as
     * every ticket is hashed once at intake, on the stream thread.
     */
    private static final class Sink {
        private final MessageDigest digest = sha256();
        private final byte[] length = new byte[4];

        void writeInt(int value) {
            length[0] = (byte) (value >>> 24);
            length[1] = (byte) (value >>> 16);
            length[2] = (byte) (value >>> 8);
            length[3] = (byte) value;
            digest.update(length);
        }

        void write(byte[] bytes) {
            digest.update(bytes);
        }
    }

    private static String digest(Parts parts) {
        Sink sink = new Sink();
        parts.writeTo(sink);
        return HexFormat.of().formatHex(sink.digest.digest());
    }

    /**
     * {@code text} trimmed, every run of white space one space; null becomes empty. "White space" is
     * Unicode's White_Space property, exactly what {@code \\s} means under
     * {@link Pattern#UNICODE_CHARACTER_CLASS} (the key's definition since scheme 1, and what
     * {@code ContentKeyTest} compares this against); the final trim is {@link String#strip()}.
     *
     * <p>A loop rather than {@code Pattern.replaceAll}: every ticket is hashed once at intake, on
     * the stream thread, and the regex's matcher was a tenth of that thread's intake work in the
     * overhead benchmark (i). A text with nothing to collapse is not copied.
     */
    public static String normalise(String text) {
        if (text == null) {
            return "";
        }
        int n = text.length();
        int i = 0;
        while (i < n && !collapses(text, i)) {
            i++;
        }
        if (i == n) {
            return text.strip();
        }
        StringBuilder out = new StringBuilder(n);
        out.append(text, 0, i);
        while (i < n) {
            char c = text.charAt(i);
            if (isWhiteSpace(c)) {
                out.append(' ');
                while (i < n && isWhiteSpace(text.charAt(i))) {
                    i++;
                }
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString().strip();
    }

    /** Whether the white space at {@code i} changes under collapsing: anything but a lone ASCII space. */
    private static boolean collapses(String text, int i) {
        char c = text.charAt(i);
        if (!isWhiteSpace(c)) {
            return false;
        }
        return c != ' ' || (i + 1 < text.length() && isWhiteSpace(text.charAt(i + 1)));
    }

    /**
     * Unicode's White_Space property (every such code point is in the BMP, so a {@code char} test
     * is exact, and no surrogate is white space): U+0009–U+000D, U+0020, U+0085, U+00A0, U+1680,
     * U+2000–U+200A, U+2028, U+2029, U+202F, U+205F and U+3000.
     */
    static boolean isWhiteSpace(char c) {
        if (c <= ' ') {
            return c == ' ' || (c >= '\t' && c <= '\r');
        }
        if (c < '\u0085') {
            return false;
        }
        return c == '\u0085' || c == '\u00a0' || c == '\u1680' || (c >= '\u2000' && c <= '\u200a') || c == '\u2028'
                || c == '\u2029' || c == '\u202f' || c == '\u205f' || c == '\u3000';
    }

    private static void writeAll(Sink out, List<String> values) {
        out.writeInt(values.size());
        for (String v : values) {
            write(out, v);
        }
    }

    private static void write(Sink out, String value) {
        byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
        out.writeInt(utf8.length);
        out.write(utf8);
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public String toString() {
        return hex;
    }
}
