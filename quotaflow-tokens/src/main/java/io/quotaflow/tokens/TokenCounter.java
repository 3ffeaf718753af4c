package io.quotaflow.tokens;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingRegistry;
import com.knuddels.jtokkit.api.EncodingType;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Counts prompt tokens the way OpenAI bills chat completions: each message costs its content and
 * role tokens plus {@value #TOKENS_PER_MESSAGE} tokens of framing, and every reply is primed with
 * {@value #TOKENS_PER_REPLY} more. The encoding follows the model family ({@code o200k_base} for
 * gpt-4o, gpt-4.1, gpt-5 and the o-series, {@code cl100k_base} otherwise) unless configured.
 *
 * <p>Thread-safe: jtokkit encodings are stateless.
 */
public final class TokenCounter {

    public static final int TOKENS_PER_MESSAGE = 3;
    public static final int TOKENS_PER_REPLY = 3;

    private static final EncodingRegistry REGISTRY = Encodings.newLazyEncodingRegistry();

    /** Pieces of at most this many characters are remembered. */
    static final int CACHED_PIECE_CHARS = 24;
    /** The most pieces remembered per encoding (a few MB; support tickets' vocabulary fits). */
    static final int CACHE_ENTRIES = 50_000;

    private final Encoding encoding;
    /** The encoding's own pre-tokenizer, when it is a regular expression (o200k_base); null otherwise. */
    private final Pattern splitter;
    private final Map<String, Integer> pieces;

    private TokenCounter(Encoding encoding) {
        this.encoding = Objects.requireNonNull(encoding);
        this.splitter = "o200k_base".equals(encoding.getName()) ? splitterOf(encoding) : null;
        this.pieces = splitter == null ? null : CACHES.computeIfAbsent(encoding.getName(), n -> new ConcurrentHashMap<>());
    }

    private static final Map<String, Map<String, Integer>> CACHES = new ConcurrentHashMap<>();

    /**
     * jtokkit splits a text with the encoding's regular expression and runs byte-pair merging on
     * each piece, and the count is the sum over the pieces. For o200k_base the merging (hash
     * lookups of byte pairs) is about two thirds of the time, and the same words come back in
     * every ticket, so each short piece's count is remembered. jtokkit does not expose its
     * pattern, so it is read from the encoding; if that ever fails (another jtokkit version), the
     * counter counts without remembering, as before.
     */
    private static Pattern splitterOf(Encoding encoding) {
        try {
            java.lang.reflect.Field field = encoding.getClass().getDeclaredField("pattern");
            field.setAccessible(true);
            return field.get(encoding) instanceof Pattern p ? p : null;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    /** A counter using the encoding of {@code model}'s family. */
    public static TokenCounter forModel(String model) {
        return forEncoding(encodingNameFor(model));
    }

    /** A counter using a named encoding: {@code o200k_base}, {@code cl100k_base}, ... */
    public static TokenCounter forEncoding(String encodingName) {
        EncodingType type = EncodingType.fromName(encodingName)
                .orElseThrow(() -> new IllegalArgumentException("unknown token encoding: " + encodingName));
        return new TokenCounter(REGISTRY.getEncoding(type));
    }

    /** {@code o200k_base} for gpt-4o, gpt-4.1, gpt-5, o1/o3/o4 families; {@code cl100k_base} otherwise. */
    public static String encodingNameFor(String model) {
        String m = model == null ? "" : model.toLowerCase(Locale.ROOT);
        int slash = m.lastIndexOf('/');
        if (slash >= 0) {
            m = m.substring(slash + 1);
        }
        if (m.startsWith("gpt-4o") || m.startsWith("gpt-4.1") || m.startsWith("gpt-4.5") || m.startsWith("gpt-5")
                || m.startsWith("chatgpt-4o") || m.matches("^o[1-9].*") || m.startsWith("gpt-oss")) {
            return "o200k_base";
        }
        return "cl100k_base";
    }

    /** Tokens of a plain string, special tokens treated as ordinary text. */
    public int count(String text) {
        if (text == null || text.isEmpty()) {
            return 0;
        }
        if (splitter == null) {
            return encoding.countTokensOrdinary(text);
        }
        if (Latin1O200kSplitter.applies(text)) {
            int[] total = {0};
            Latin1O200kSplitter.split(text, piece -> total[0] += pieceTokens(piece));
            return total[0];
        }
        Matcher m = splitter.matcher(text);
        int total = 0;
        while (m.find()) {
            total += pieceTokens(m.group());
        }
        return total;
    }

    private int pieceTokens(String piece) {
        if (piece.length() > CACHED_PIECE_CHARS) {
            return encoding.countTokensOrdinary(piece);
        }
        Integer known = pieces.get(piece);
        if (known == null) {
            known = encoding.countTokensOrdinary(piece);
            if (pieces.size() < CACHE_ENTRIES) {
                pieces.put(piece, known);
            }
        }
        return known;
    }

    /** The pieces the encoding's own pattern cuts {@code text} into (for tests). */
    java.util.List<String> patternPieces(String text) {
        java.util.List<String> out = new java.util.ArrayList<>();
        Matcher m = splitter.matcher(text);
        while (m.find()) {
            out.add(m.group());
        }
        return out;
    }

    /** Whether this counter remembers pieces (o200k_base with a readable pattern). */
    boolean remembersPieces() {
        return splitter != null;
    }

    /** Counts exactly as jtokkit does, without remembering anything (for tests and comparison). */
    int countUncached(String text) {
        return text == null || text.isEmpty() ? 0 : encoding.countTokensOrdinary(text);
    }

    /** Prompt tokens of a chat request made of {@code messages} (role and content pairs). */
    public int countChat(List<ChatMessage> messages) {
        int total = TOKENS_PER_REPLY;
        for (ChatMessage message : messages) {
            total += TOKENS_PER_MESSAGE + count(message.role()) + count(message.content());
        }
        return total;
    }

    /** One message of a chat prompt. */
    public record ChatMessage(String role, String content) {
        public ChatMessage {
            Objects.requireNonNull(role, "role");
            content = content == null ? "" : content;
        }
    }
}
