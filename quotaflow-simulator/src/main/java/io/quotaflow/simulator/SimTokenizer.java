package io.quotaflow.simulator;

import io.quotaflow.tokens.TokenCounter;
import io.quotaflow.tokens.TokenCounter.ChatMessage;

import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * The tokenizer of the {@link ProviderSimulator}: how <em>the provider</em> counts, which need not
 * be how the client counts. A client that estimates with the wrong tokenizer is then charged, and
 * refused, by numbers it did not predict, as it would be by a real provider of another family.
 *
 * <ul>
 *   <li>{@link #AUTO} (the default): the encoding OpenAI uses for the configured model
 *       ({@code o200k_base} for gpt-4o, gpt-4.1, gpt-5 and the o-series, {@code cl100k_base}
 *       otherwise), i.e. the same choice the client makes by default;</li>
 *   <li>{@link #O200K_BASE}, {@link #CL100K_BASE}: that jtokkit encoding, whatever the model, with
 *       OpenAI's chat framing (3 tokens per message, its role and content tokens, 3 to prime the
 *       reply; see {@link TokenCounter});</li>
 *   <li>{@link #CHARS}: a provider that does not use BPE at all and bills by characters. A text
 *       costs {@code ceil(c / 4)} tokens where {@code c} is its number of Unicode code points; a
 *       chat prompt costs {@value #CHARS_PER_REPLY} + the sum over its messages of
 *       ({@value #CHARS_PER_MESSAGE} + {@code ceil(c / 4)} of the message content); the role is
 *       part of the per-message overhead. A completion costs {@code ceil(c / 4)} of its content.</li>
 * </ul>
 */
public enum SimTokenizer {
    AUTO("auto"),
    O200K_BASE("o200k_base"),
    CL100K_BASE("cl100k_base"),
    CHARS("chars");

    /** Per-message overhead of {@link #CHARS}, role included. */
    public static final int CHARS_PER_MESSAGE = 4;
    /** Tokens of {@link #CHARS} priming the reply, once per prompt. */
    public static final int CHARS_PER_REPLY = 3;
    /** Code points per token of {@link #CHARS}. */
    public static final int CHARS_PER_TOKEN = 4;

    private final String id;

    SimTokenizer(String id) {
        this.id = id;
    }

    /** The name used on the command line and in the statistics: {@code auto}, {@code o200k_base}, ... */
    public String id() {
        return id;
    }

    @Override
    public String toString() {
        return id;
    }

    /** The valid names, for error messages and help texts. */
    public static String choices() {
        return "auto, o200k_base, cl100k_base, chars";
    }

    /**
     * The tokenizer named {@code text} (case-insensitive, surrounding blanks ignored).
     *
     * @throws IllegalArgumentException for any other name
     */
    public static SimTokenizer parse(String text) {
        if (text != null) {
            String name = text.strip().toLowerCase(Locale.ROOT);
            for (SimTokenizer t : values()) {
                if (t.id.equals(name)) {
                    return t;
                }
            }
        }
        throw new IllegalArgumentException("unknown tokenizer '" + text + "': expected one of " + choices());
    }

    /** {@link #AUTO} resolved for {@code model}; any other tokenizer is itself. */
    public SimTokenizer resolve(String model) {
        if (this != AUTO) {
            return this;
        }
        return TokenCounter.encodingNameFor(model).equals(O200K_BASE.id) ? O200K_BASE : CL100K_BASE;
    }

    /** A counter of this tokenizer ({@link #AUTO} resolved for {@code model}). */
    public Counter counter(String model) {
        SimTokenizer resolved = resolve(model);
        return resolved == CHARS ? new Counter(resolved, null) : new Counter(resolved, TokenCounter.forEncoding(resolved.id));
    }

    /** {@code ceil(code points / 4)}: the {@link #CHARS} cost of a text. */
    public static int charsTokens(String text) {
        if (text == null || text.isEmpty()) {
            return 0;
        }
        long codePoints = text.codePointCount(0, text.length());
        return (int) ((codePoints + CHARS_PER_TOKEN - 1) / CHARS_PER_TOKEN);
    }

    /** Counts texts and chat prompts with one resolved tokenizer. Thread-safe. */
    public static final class Counter {
        private final SimTokenizer tokenizer;
        private final TokenCounter bpe;

        private Counter(SimTokenizer tokenizer, TokenCounter bpe) {
            this.tokenizer = Objects.requireNonNull(tokenizer);
            this.bpe = bpe;
        }

        /** The resolved tokenizer: never {@link #AUTO}. */
        public SimTokenizer tokenizer() {
            return tokenizer;
        }

        /** Tokens of a plain text (a completion). */
        public int count(String text) {
            return bpe != null ? bpe.count(text) : charsTokens(text);
        }

        /** Prompt tokens of a chat request, as the provider bills them in {@code usage.prompt_tokens}. */
        public int countChat(List<ChatMessage> messages) {
            if (bpe != null) {
                return bpe.countChat(messages);
            }
            long total = CHARS_PER_REPLY;
            for (ChatMessage message : messages) {
                total += CHARS_PER_MESSAGE + charsTokens(message.content());
            }
            return (int) Math.min(Integer.MAX_VALUE, total);
        }
    }
}
