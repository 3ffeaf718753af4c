package io.quotaflow.quota;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class CompletionBudgetTest {

    @Test
    void shouldStartFromTheConfiguredBudget() {
        CompletionBudget budget = new CompletionBudget(28);
        assertThat(budget.maxTokensFor(10, 1)).isEqualTo(8 + 280);
        assertThat(budget.maxTokensFor(10, 2)).isEqualTo(2 * (8 + 280));
    }

    @Test
    void shouldTightenToAHighPercentileOfWhatAnswersTook() {
        CompletionBudget budget = new CompletionBudget(28);
        for (int i = 0; i < 100; i++) {
            budget.record(10, 8 + 10 * (i % 10 == 0 ? 19 : 17));
        }
        // p99 per ticket is 19 tokens; with the 15 % margin and one token: 23
        assertThat(budget.perItem()).isEqualTo(23);
        assertThat(budget.maxTokensFor(10, 1)).isLessThan(8 + 280);
    }

    @Test
    void shouldStayWithinBounds() {
        CompletionBudget budget = new CompletionBudget(30);
        for (int i = 0; i < 50; i++) {
            budget.record(5, 1);
        }
        assertThat(budget.perItem()).isEqualTo(10);
        for (int i = 0; i < 300; i++) {
            budget.record(1, 10_000);
        }
        assertThat(budget.perItem()).isEqualTo(120);
    }
}
