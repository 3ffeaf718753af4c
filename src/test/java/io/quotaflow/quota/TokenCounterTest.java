package io.quotaflow.quota;

import io.quotaflow.quota.TokenCounter.ChatMessage;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class TokenCounterTest {

    private static final String[] PIECES = {"Hello", " world", "I was charged twice", ", please refund", "Cobrança indevida",
            " não consigo acessar", "  ", "\n\n", "\r\n", "\t", "it's", " they'll", " WE'RE", "API", "500", "123456789",
            "2fa", "https://example.com/a/b?c=d", "日本語のテキスト", "😀😀", "emoji 🚀 here", " ...", "!!!", "{\"id\":\"T-1\"}",
            "naïve café", "Straße", "ÀÉÎÕÜ", "x", " ", "a  b", "end.   ", "\u00a0", "tab\tseparated", "CamelCaseWord", "snake_case",
            "über-long-hyphenated-word-that-goes-on-and-on-and-on", "ОЧЕНЬ", "مرحبا", "1,000.50", "$19.99", "—", "’s"};

    @Test
    void shouldCountExactlyAsJtokkitWhileRememberingPieces() {
        TokenCounter counter = TokenCounter.forEncoding("o200k_base");
        assertThat(counter.remembersPieces()).as("jtokkit's o200k pattern is readable").isTrue();
        Random random = new Random(11);
        for (int n = 0; n < 5_000; n++) {
            StringBuilder text = new StringBuilder();
            int parts = 1 + random.nextInt(40);
            for (int i = 0; i < parts; i++) {
                text.append(PIECES[random.nextInt(PIECES.length)]);
                if (random.nextInt(4) == 0) {
                    text.append(' ');
                }
            }
            String s = text.toString();
            // twice: the second count reads remembered pieces
            assertThat(counter.count(s)).as("[%s]", s).isEqualTo(counter.countUncached(s));
            assertThat(counter.count(s)).as("[%s]", s).isEqualTo(counter.countUncached(s));
        }
    }

    @Test
    void shouldCountOtherEncodingsAsJtokkitDoes() {
        TokenCounter counter = TokenCounter.forEncoding("cl100k_base");
        assertThat(counter.remembersPieces()).isFalse();
        assertThat(counter.count("I was charged twice, please refund")).isEqualTo(counter.countUncached("I was charged twice, please refund"));
        assertThat(counter.count("")).isZero();
        assertThat(counter.count(null)).isZero();
    }

    @Test
    void shouldAddMessageFramingToAChat() {
        TokenCounter counter = TokenCounter.forEncoding("o200k_base");
        int content = counter.count("hi there");
        int chat = counter.countChat(List.of(new ChatMessage("user", "hi there")));
        assertThat(chat).isEqualTo(TokenCounter.TOKENS_PER_REPLY + TokenCounter.TOKENS_PER_MESSAGE + counter.count("user") + content);
    }
}
