package io.quotaflow.tokens;

import io.quotaflow.tokens.TokenCounter.ChatMessage;
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
    void shouldCutLatin1TextIntoThePatternsPieces() {
        TokenCounter counter = TokenCounter.forEncoding("o200k_base");
        String alphabet = "aZbYzA09 \t\n\r\u000b\f'sStTrReEvVlLmMdD.,;:!?/\\-_()[]{}\"$%&*+=<>|~`^@#\u0000\u001f\u007fçãéÉÇÕüÜßÿµ²³¹¼½¾×÷\u00a0\u0085¡¿«»°§¶·¬\u00ad";
        String[] words = {"Hello", "WORLD", "don't", "I'M", "we're", "they've", "You'll", "it'D", "'s", "'re", "123456", "x1y2",
                "http://a.b/c", "  ", "\r\n", " \n ", "\n\n\n", "ABCdef", "abcDEF", "a'", "'", "''", "'ll", "Ação", "NÃO", "não'S", "Über", "ÉCOLE", "½kg", "\u00a0\n", "x\u0085y"};
        Random random = new Random(3);
        for (int n = 0; n < 20_000; n++) {
            StringBuilder text = new StringBuilder();
            int parts = 1 + random.nextInt(12);
            for (int i = 0; i < parts; i++) {
                if (random.nextBoolean()) {
                    text.append(words[random.nextInt(words.length)]);
                } else {
                    int len = 1 + random.nextInt(4);
                    for (int k = 0; k < len; k++) {
                        text.append(alphabet.charAt(random.nextInt(alphabet.length())));
                    }
                }
            }
            String s = text.toString();
            assertThat(Latin1O200kSplitter.applies(s)).isTrue();
            List<String> mine = new java.util.ArrayList<>();
            Latin1O200kSplitter.split(s, mine::add);
            assertThat(mine).as("[%s]", s).isEqualTo(counter.patternPieces(s));
            assertThat(counter.count(s)).isEqualTo(counter.countUncached(s));
        }
        assertThat(Latin1O200kSplitter.applies("ordinal 1ª")).as("ª is Lo: the pattern's").isFalse();
        assertThat(Latin1O200kSplitter.applies("日本")).isFalse();
    }

    @Test
    void shouldCountOtherEncodingsWithoutRememberingPieces() {
        TokenCounter counter = TokenCounter.forEncoding("cl100k_base");
        assertThat(counter.remembersPieces()).isFalse();
        assertThat(counter.count("hello world")).isEqualTo(2);
        assertThat(counter.count("")).isZero();
        assertThat(counter.count(null)).isZero();
    }

    @Test
    void shouldAddMessageFramingToAChat() {
        TokenCounter counter = TokenCounter.forEncoding("o200k_base");
        assertThat(counter.count("hi there")).isEqualTo(2);
        // 3 to prime the reply + 3 of framing + "user" (1) + "hi there" (2)
        assertThat(counter.countChat(List.of(new ChatMessage("user", "hi there")))).isEqualTo(9);
    }
}
