package io.quotaflow.quota;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingRegistry;
import com.knuddels.jtokkit.api.EncodingType;

import java.util.List;
import java.util.Objects;

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

    private final Encoding encoding;

    private TokenCounter(Encoding encoding) {
        this.encoding = Objects.requireNonNull(encoding);
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
        return io.quotaflow.config.ModelSettings.defaultEncoding(model);
    }

    /** Tokens of a plain string, special tokens treated as ordinary text. */
    public int count(String text) {
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
