package io.quotaflow.simulator;

import io.quotaflow.tokens.TokenCounter;
import io.quotaflow.tokens.TokenCounter.ChatMessage;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SimTokenizerTest {

    private static final List<ChatMessage> MESSAGES = List.of(
            new ChatMessage("system", "You classify customer support tickets."),
            new ChatMessage("user", "Fui cobrado duas vezes na fatura deste mês, quero o reembolso imediatamente. "
                    + "Não consigo falar com ninguém do atendimento."));

    @Test
    void shouldParseEveryNameCaseInsensitivelyAndRejectOthers() {
        assertThat(SimTokenizer.parse("auto")).isEqualTo(SimTokenizer.AUTO);
        assertThat(SimTokenizer.parse(" O200K_BASE ")).isEqualTo(SimTokenizer.O200K_BASE);
        assertThat(SimTokenizer.parse("cl100k_base")).isEqualTo(SimTokenizer.CL100K_BASE);
        assertThat(SimTokenizer.parse("Chars")).isEqualTo(SimTokenizer.CHARS);
        for (SimTokenizer t : SimTokenizer.values()) {
            assertThat(SimTokenizer.parse(t.id())).isEqualTo(t);
            assertThat(t.toString()).isEqualTo(t.id());
        }
        for (String bad : new String[] {"p50k_base", "", "o200k", null}) {
            assertThatThrownBy(() -> SimTokenizer.parse(bad)).as(String.valueOf(bad))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("auto, o200k_base, cl100k_base, chars");
        }
    }

    @Test
    void shouldResolveAutoToTheModelsOpenAiEncoding() {
        assertThat(SimTokenizer.AUTO.resolve("gpt-4o-mini")).isEqualTo(SimTokenizer.O200K_BASE);
        assertThat(SimTokenizer.AUTO.resolve("gpt-4.1-mini")).isEqualTo(SimTokenizer.O200K_BASE);
        assertThat(SimTokenizer.AUTO.resolve("gpt-4")).isEqualTo(SimTokenizer.CL100K_BASE);
        assertThat(SimTokenizer.AUTO.resolve("llama-3-8b")).isEqualTo(SimTokenizer.CL100K_BASE);
        assertThat(SimTokenizer.CHARS.resolve("gpt-4o-mini")).isEqualTo(SimTokenizer.CHARS);
        assertThat(SimTokenizer.CL100K_BASE.resolve("gpt-4o-mini")).isEqualTo(SimTokenizer.CL100K_BASE);
        assertThat(SimTokenizer.AUTO.counter("gpt-4o-mini").tokenizer()).isEqualTo(SimTokenizer.O200K_BASE);
    }

    @Test
    void shouldCountBpeEncodingsExactlyLikeTheClientCounterOfThatEncoding() {
        TokenCounter o200k = TokenCounter.forEncoding("o200k_base");
        TokenCounter cl100k = TokenCounter.forEncoding("cl100k_base");
        assertThat(SimTokenizer.AUTO.counter("gpt-4o-mini").countChat(MESSAGES)).isEqualTo(o200k.countChat(MESSAGES))
                .isEqualTo(43);
        assertThat(SimTokenizer.CL100K_BASE.counter("gpt-4o-mini").countChat(MESSAGES))
                .isEqualTo(cl100k.countChat(MESSAGES)).isEqualTo(55);
        assertThat(SimTokenizer.O200K_BASE.counter("gpt-4").count("Hello, world")).isEqualTo(o200k.count("Hello, world"));
    }

    @Test
    void shouldCountCharsAsCeilOfCodePointsOverFour() {
        assertThat(SimTokenizer.charsTokens(null)).isZero();
        assertThat(SimTokenizer.charsTokens("")).isZero();
        assertThat(SimTokenizer.charsTokens("a")).isEqualTo(1);
        assertThat(SimTokenizer.charsTokens("abcd")).isEqualTo(1);
        assertThat(SimTokenizer.charsTokens("abcde")).isEqualTo(2);
        // code points, not UTF-16 units: five emoji are ten chars but five code points
        assertThat(SimTokenizer.charsTokens("😀😀😀😀😀")).isEqualTo(2);
        assertThat(SimTokenizer.charsTokens("ação")).isEqualTo(1);
        SimTokenizer.Counter chars = SimTokenizer.CHARS.counter("gpt-4o-mini");
        assertThat(chars.count("abcdefghi")).isEqualTo(3);
    }

    @Test
    void shouldCountACharsPromptAsThreePlusFourPerMessagePlusItsContent() {
        SimTokenizer.Counter chars = SimTokenizer.CHARS.counter("gpt-4o-mini");
        // the role is part of the 4-token overhead, whatever its length
        assertThat(chars.countChat(List.of(new ChatMessage("user", "")))).isEqualTo(3 + 4);
        assertThat(chars.countChat(List.of(new ChatMessage("system", "abc"), new ChatMessage("assistant", "abcde"))))
                .isEqualTo(3 + (4 + 1) + (4 + 2));
        // 3 + (4 + ceil(38 / 4)) + (4 + ceil(122 / 4))
        assertThat(chars.countChat(MESSAGES)).isEqualTo(52);
    }
}
