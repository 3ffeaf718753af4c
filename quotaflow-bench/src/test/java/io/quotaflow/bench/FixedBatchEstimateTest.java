package io.quotaflow.bench;

import io.quotaflow.settings.BatchSettings;
import io.quotaflow.records.Priority;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class FixedBatchEstimateTest {

    private final List<GeneratedTicket> tickets = new TicketGenerator(7).generate(237);

    @Test
    void shouldCutEachPriorityClassIntoChunksOfTheGivenSize() {
        FixedBatchEstimate.Figures f = FixedBatchEstimate.compute(tickets, 10);
        long expectedCalls = 0;
        for (Priority p : Priority.values()) {
            long n = tickets.stream().filter(t -> t.priority() == p).count();
            expectedCalls += (n + 9) / 10;
        }
        assertThat(f.calls()).isEqualTo(expectedCalls);
        // admitted = prompt + max_tokens of every call; max_tokens of a full call is 8 + 10 × 28
        assertThat(f.tokensAdmitted() - f.promptTokens()).isBetween((expectedCalls - 3) * BatchSettings.ofDefaults().maxTokensFor(10),
                expectedCalls * BatchSettings.ofDefaults().maxTokensFor(10));
        assertThat(f.completionTokens()).isPositive().isLessThan(f.tokensAdmitted() - f.promptTokens());
    }

    @Test
    void shouldAmortiseThePerCallOverheadOverBiggerBatches() {
        FixedBatchEstimate.Figures one = FixedBatchEstimate.compute(tickets, 1);
        FixedBatchEstimate.Figures ten = FixedBatchEstimate.compute(tickets, 10);
        assertThat(one.calls()).isEqualTo(tickets.size());
        assertThat(ten.promptTokens()).isLessThan(one.promptTokens());
        assertThat(ten.tokensAdmitted()).isLessThan(one.tokensAdmitted());
    }
}
