package io.quotaflow.bench;

import io.quotaflow.llm.TicketText;
import io.quotaflow.simulator.KeywordClassifier;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class LeanBenchmarkTest {

    private static LeanBenchmark.Row row(List<LeanBenchmark.Row> rows, String set, int step) {
        return rows.stream().filter(r -> r.set().equals(set) && r.step().equals(LeanBenchmark.STEPS.get(step).name())).findFirst().orElseThrow();
    }

    @Test
    void shouldClassifyEveryTicketAtEveryStepAndSpendFewerTokensWithEachLever() {
        LeanBenchmark.Result result = new LeanBenchmark(300, 42, m -> { }).run();

        assertThat(result.clean()).isTrue();
        assertThat(result.rows()).hasSize(3 * LeanBenchmark.STEPS.size());
        for (String set : List.of("generated", "real-shaped", "demo")) {
            for (int step = 1; step < LeanBenchmark.STEPS.size(); step++) {
                assertThat(row(result.rows(), set, step).admittedTokens()).as(set + " step " + step)
                        .isLessThanOrEqualTo(row(result.rows(), set, step - 1).admittedTokens());
            }
        }
        // the real-shaped set carries every shape of the heavy tail: each lever, each cut and the reservation take tokens off
        for (int step = 1; step < LeanBenchmark.STEPS.size(); step++) {
            assertThat(row(result.rows(), "real-shaped", step).admittedTokens()).as("real-shaped step " + step)
                    .isLessThan(row(result.rows(), "real-shaped", step - 1).admittedTokens());
        }
        LeanBenchmark.Row lean = row(result.rows(), "generated", LeanBenchmark.STEPS.size() - 1);
        assertThat(lean.changes()).isEqualTo(new LeanBenchmark.Changes(0, 0, 0, 0));
        LeanBenchmark.Row real = row(result.rows(), "real-shaped", LeanBenchmark.STEPS.size() - 1);
        assertThat(real.changes().categoryLost()).as("no category the full prompt got right is lost").isZero();
        assertThat(real.changes().urgencyLost()).as("no urgency the full prompt got right is lost").isZero();
        assertThat(real.perTicket(real.admittedTokens())).isLessThan(200);
        assertThat(result.report()).contains("baseline (prompt v1)").contains("without a confuser");
    }

    @Test
    void shouldStillClassifyEveryTicketWhenTheFirstMaxTokensIsFarTooSmall() {
        // 8 tokens a ticket to start with: the first calls are cut at max_tokens and asked again
        LeanBenchmark.Result result = new LeanBenchmark(200, 7, 10, 8, m -> { }).run();

        assertThat(result.clean()).isTrue();
        LeanBenchmark.Row lean = row(result.rows(), "generated", LeanBenchmark.STEPS.size() - 1);
        assertThat(lean.cutCalls()).isPositive();
        assertThat(lean.classified()).isEqualTo(200);
        assertThat(lean.changes()).isEqualTo(new LeanBenchmark.Changes(0, 0, 0, 0));
        // the cut calls' complete retries raise the budget: only the first few calls are cut
        assertThat(lean.cutCalls()).isBetween(1L, 3L);
    }

    @Test
    void shouldGiveTheSimulatorTheSameAnswerOnLeanTextAsOnTheWholeGeneratedTicket() {
        KeywordClassifier classifier = new KeywordClassifier();
        for (GeneratedTicket t : new TicketGenerator(42, 0.01).generate(3_000)) {
            assertThat(classifier.classify(TicketText.lean(t.subject()), TicketText.lean(t.body())))
                    .as(t.id()).isEqualTo(classifier.classify(t.subject(), t.body()));
        }
    }

    @Test
    void shouldLetTheSimulatorDisagreeWhenTheTextThatCarriedTheLabelIsCut() {
        GeneratedTicket ticket = new TicketGenerator(42).generate(50).stream()
                .filter(t -> t.label().category().equals("billing") && !t.isLong()).findFirst().orElseThrow();
        KeywordClassifier classifier = new KeywordClassifier();
        // the paragraph carrying the meaning is the body's second block; leave only greeting and sign-off
        String[] blocks = ticket.body().split("\n\n");
        String withoutMeaning = blocks[0] + "\n\n" + blocks[blocks.length - 1];

        assertThat(classifier.classify(null, withoutMeaning).category()).isNotEqualTo("billing");
    }
}
