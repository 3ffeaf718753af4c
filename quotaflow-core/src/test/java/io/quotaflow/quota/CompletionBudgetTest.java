package io.quotaflow.quota;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

class CompletionBudgetTest {

    @Test
    void shouldStartFromTheConfiguredBudget() {
        CompletionBudget budget = new CompletionBudget(28);
        assertThat(budget.maxTokensFor(10, 1)).isEqualTo(8 + 280);
        assertThat(budget.maxTokensFor(10, 2)).isEqualTo(2 * (8 + 280));
    }

    @Test
    void shouldConvergeToTheHighPercentileOfAnswersOfTheSameSize() {
        CompletionBudget budget = new CompletionBudget(28);
        // 64 answers of ten tickets: 140 .. 203 completion tokens, each once
        for (int i = 0; i < CompletionBudget.SIZE_WINDOW; i++) {
            budget.record(10, 140 + (i * 37) % 64);
        }
        // the 98th percentile (nearest rank) of 64 values is the 63rd: 202; plus one token
        assertThat(budget.maxTokensFor(10, 1)).isEqualTo(203);
        assertThat(budget.maxTokensFor(10, 2)).isEqualTo(2 * 203);
    }

    @Test
    void shouldReserveForAFullBatchCloseToWhatItUsesNotTenTimesTheLargestTicket() {
        CompletionBudget budget = new CompletionBudget(28);
        SplittableRandom random = new SplittableRandom(7);
        long used = 0;
        int calls = 0;
        for (int i = 0; i < 200; i++) {
            // ten entries of 12 to 15 tokens each
            int answer = 8;
            for (int t = 0; t < 10; t++) {
                answer += 12 + random.nextInt(4);
            }
            budget.record(10, answer);
            if (i >= 100) {
                used += answer;
                calls++;
            }
        }
        double meanUsed = (double) used / calls;
        // ten times the largest entry would be 8 + 150 (and 3 % on top); the sum's own percentile is far below
        assertThat(budget.maxTokensFor(10, 1)).isLessThan(8 + 150).isGreaterThan((int) meanUsed);
        assertThat(budget.maxTokensFor(10, 1) / meanUsed).isLessThan(1.08);
    }

    @Test
    void shouldSizeABatchWithoutAnswersOfItsOwnFromThePerTicketPercentile() {
        CompletionBudget budget = new CompletionBudget(28);
        for (int i = 0; i < 20; i++) {
            budget.record(10, 8 + 150);
        }
        // 15 tokens a ticket, + 3 %: 15.45 a ticket
        assertThat(budget.perItem()).isEqualTo(16);
        assertThat(budget.maxTokensFor(3, 1)).isEqualTo(8 + 47);
        assertThat(budget.maxTokensFor(10, 1)).as("its own size: its percentile + 1").isEqualTo(8 + 150 + 1);
    }

    @Test
    void shouldCoverASmallCallsAnswerLearnedOnlyFromFullBatchesMostOfTheTime() {
        CompletionBudget budget = new CompletionBudget(28);
        SplittableRandom random = new SplittableRandom(11);
        for (int i = 0; i < 200; i++) {
            budget.record(10, answer(random, 10));
        }
        int full = budget.maxTokensFor(10, 1);
        for (int n : new int[] {1, 2, 3, 5}) {
            int reserved = budget.maxTokensFor(n, 1);
            int cut = 0;
            for (int i = 0; i < 10_000; i++) {
                if (answer(random, n) > reserved) {
                    cut++;
                }
            }
            // an entry of 10..17 tokens: the mean of ten spreads a third as much as one entry; the 98th percentile
            // of ten-ticket means times n cut a call of one 1 time in 8 and a call of three 1 time in 25
            assertThat(cut).as("calls of %d cut at max_tokens=%d, of 10,000", n, reserved).isLessThan(200);
            assertThat(reserved).as("and not the configured 28 a ticket").isLessThan(8 + 20 * n);
        }
        assertThat(budget.maxTokensFor(10, 1)).as("a full batch keeps its own percentile").isEqualTo(full).isLessThan(8 + 150);

        // eight answers of three of its own: their largest is its percentile, not yet the reservation
        for (int i = 0; i < CompletionBudget.MIN_SAME_SIZE; i++) {
            budget.record(3, answer(random, 3));
        }
        int reserved = budget.maxTokensFor(3, 1);
        int cut = 0;
        for (int i = 0; i < 10_000; i++) {
            if (answer(random, 3) > reserved) {
                cut++;
            }
        }
        assertThat(cut).as("calls of 3 after 8 of their own, cut at max_tokens=%d, of 10,000", reserved).isLessThan(200);
    }

    /** An answer of {@code n} tickets: the envelope plus an entry of 10 to 17 tokens each. */
    private static int answer(SplittableRandom random, int n) {
        int tokens = 8;
        for (int t = 0; t < n; t++) {
            tokens += 10 + random.nextInt(8);
        }
        return tokens;
    }

    @Test
    void shouldLearnFromTheFirstAnswerWithAColdMargin() {
        CompletionBudget budget = new CompletionBudget(28);
        budget.record(10, 8 + 140);
        // 14 tokens a ticket, + 15 % while fewer than 8 answers came back: 16.1
        assertThat(budget.maxTokensFor(10, 1)).isEqualTo(8 + 161);
        for (int i = 1; i < CompletionBudget.MIN_SAMPLES; i++) {
            budget.record(10, 8 + 140);
        }
        // then + 3 %: 14.42
        assertThat(budget.maxTokensFor(5, 1)).isEqualTo(8 + 73);
    }

    @Test
    void shouldForgetALargeAnswerOnceItLeftTheWindow() {
        CompletionBudget budget = new CompletionBudget(28);
        budget.record(10, 8 + 250);
        for (int i = 0; i < CompletionBudget.WINDOW; i++) {
            budget.record(10, 8 + 150);
        }
        assertThat(budget.maxTokensFor(10, 1)).isEqualTo(8 + 151);
        assertThat(budget.maxTokensFor(9, 1)).as("nine tickets at 15.45").isEqualTo(8 + 140);
    }

    @Test
    void shouldRaiseTheReservationOfASizeAfterACutAnswer() {
        CompletionBudget budget = new CompletionBudget(28);
        for (int i = 0; i < 20; i++) {
            budget.record(10, 8 + 150);
        }
        int before = budget.maxTokensFor(10, 1);

        budget.recordCut(10, before);
        budget.recordCut(10, before);

        // two cuts of 21 answers: above the 98th percentile's rank, so the reservation is what the cut needed at least
        assertThat(budget.maxTokensFor(10, 1)).isEqualTo(before + 2).isGreaterThan(before);
    }

    @Test
    void shouldNeverReserveBelowTheFloorOrAboveTheCap() {
        CompletionBudget budget = new CompletionBudget(30);
        for (int i = 0; i < 100; i++) {
            budget.record(5, 1);
        }
        assertThat(budget.perItem()).as("floor: a third of the configured value").isEqualTo(10);
        assertThat(budget.maxTokensFor(5, 1)).isEqualTo(8 + 50);
        for (int i = 0; i < 300; i++) {
            budget.record(1, 10_000);
            budget.record(5, 10_000);
        }
        assertThat(budget.perItem()).as("cap: four times the configured value").isEqualTo(120);
        assertThat(budget.maxTokensFor(5, 1)).isEqualTo(8 + 600);
    }

    @Test
    void shouldKeepABoundedHistoryWhateverTheBatchSizes() {
        CompletionBudget budget = new CompletionBudget(20);
        for (int i = 0; i < 10_000; i++) {
            int items = 1 + i % 150;
            budget.record(items, 8 + 14L * items);
        }
        // sizes above the largest learned on their own are sized per ticket: 14 a ticket + 3 %
        assertThat(budget.maxTokensFor(150, 1)).isEqualTo(8 + 2163);
        assertThat(budget.maxTokensFor(100, 1)).isEqualTo(8 + 1400 + 1);
    }
}
