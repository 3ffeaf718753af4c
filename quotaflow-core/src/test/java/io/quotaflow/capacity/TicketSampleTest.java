package io.quotaflow.capacity;

import io.quotaflow.llm.ModelItem;
import io.quotaflow.llm.PromptBuilder;
import io.quotaflow.settings.BatchSettings;
import io.quotaflow.testing.Fixtures;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class TicketSampleTest {

    private final PromptBuilder prompt = new PromptBuilder(Fixtures.settings().model());

    private static List<ModelItem> tickets(int n) {
        List<ModelItem> items = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            items.add(new ModelItem("T-" + i, "Refund for order " + i, "I was charged twice for order " + i + ", please refund one."));
        }
        return items;
    }

    @Test
    void shouldGroupTicketsAsTheBatchSettingsAllowAndCountWhatTheTpmLimitCounts() {
        BatchSettings batch = BatchSettings.ofDefaults();
        List<ModelItem> items = tickets(25);

        TicketSample sample = TicketSample.measure(items, prompt, batch);

        assertThat(sample.requests()).as("10 + 10 + 5").isEqualTo(3);
        assertThat(sample.maxTokens()).isEqualTo(2L * batch.maxTokensFor(10) + batch.maxTokensFor(5));
        long exact = prompt.build(items.subList(0, 10), 1).promptTokens() + prompt.build(items.subList(10, 20), 1).promptTokens()
                + prompt.build(items.subList(20, 25), 1).promptTokens();
        assertThat(sample.promptTokens()).as("counted exactly, as the provider counts").isEqualTo(exact);
        assertThat(sample.ticketsPerRequest()).isCloseTo(25.0 / 3, within(1e-9));
        assertThat(sample.tokensPerRequest() * 3).isCloseTo(sample.promptTokens() + sample.maxTokens(), within(1e-6));
        assertThat(sample.tokensPerTicket() * 25).isCloseTo(sample.promptTokens() + sample.maxTokens(), within(1e-6));
    }

    @Test
    void shouldStartANewCallWhenThePromptBudgetIsFullAndSendALargeTicketAlone() {
        BatchSettings batch = BatchSettings.ofDefaults().withMaxPromptTokens(400);
        List<ModelItem> items = new ArrayList<>(tickets(2));
        items.add(1, new ModelItem("BIG", "Logs", "error ".repeat(600)));

        TicketSample sample = TicketSample.measure(items, prompt, batch);

        assertThat(sample.requests()).as("small, big alone, small").isEqualTo(3);
        assertThatThrownBy(() -> TicketSample.measure(List.of(), prompt, batch)).hasMessageContaining("no tickets");
    }
}
