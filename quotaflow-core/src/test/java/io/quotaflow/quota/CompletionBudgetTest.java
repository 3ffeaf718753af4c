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
    void shouldTightenToTheLargestAnswerPerTicketOfTheWindowWithASmallMargin() {
        CompletionBudget budget = new CompletionBudget(28);
        for (int i = 0; i < 100; i++) {
            budget.record(10, 8 + (i % 10 == 0 ? 152 : 148));
        }
        // the largest answer took 15.2 tokens a ticket; with the 3 % margin: 15.656, so 157 for ten tickets
        assertThat(budget.perItem()).isEqualTo(16);
        assertThat(budget.maxTokensFor(10, 1)).isEqualTo(8 + 157);
        assertThat(budget.maxTokensFor(1, 1)).isEqualTo(8 + 16);
        assertThat(budget.maxTokensFor(10, 2)).isEqualTo(2 * (8 + 157));
    }

    @Test
    void shouldKeepTheConfiguredBudgetUntilEnoughAnswersCameBack() {
        CompletionBudget budget = new CompletionBudget(28);
        for (int i = 0; i < CompletionBudget.MIN_SAMPLES - 1; i++) {
            budget.record(10, 8 + 150);
        }
        assertThat(budget.maxTokensFor(10, 1)).isEqualTo(8 + 280);
        budget.record(10, 8 + 150);
        assertThat(budget.maxTokensFor(10, 1)).isEqualTo(8 + 155);
    }

    @Test
    void shouldForgetALargeAnswerOnceItLeftTheWindow() {
        CompletionBudget budget = new CompletionBudget(28);
        budget.record(10, 8 + 250);
        for (int i = 0; i < CompletionBudget.WINDOW; i++) {
            budget.record(10, 8 + 150);
        }
        assertThat(budget.maxTokensFor(10, 1)).isEqualTo(8 + 155);
    }

    @Test
    void shouldLearnFromTheCompleteRetryOfACallCutAtMaxTokens() {
        CompletionBudget budget = new CompletionBudget(28);
        for (int i = 0; i < 20; i++) {
            budget.record(10, 8 + 150);
        }
        int cut = budget.maxTokensFor(10, 1);

        // the cut call's tickets answered in full with twice the budget: 17.5 tokens each
        budget.record(10, 8 + 175);

        assertThat(budget.maxTokensFor(10, 1)).isEqualTo(8 + 181).isGreaterThan(cut);
        for (int i = 0; i < 20; i++) {
            budget.record(10, 8 + 150);
        }
        assertThat(budget.maxTokensFor(10, 1)).as("the large answer is still in the window").isEqualTo(8 + 181);
    }

    @Test
    void shouldOnlyRaiseTheConfiguredBudgetBeforeEnoughAnswersCameBack() {
        CompletionBudget budget = new CompletionBudget(8);

        budget.record(10, 8 + 135);
        assertThat(budget.perItem()).isEqualTo(14);

        budget.record(10, 8 + 60);
        assertThat(budget.perItem()).isEqualTo(14);
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
