package io.quotaflow.topology;

import io.quotaflow.llm.ModelItem;
import io.quotaflow.llm.ModelOutcome;
import io.quotaflow.quota.RateLimitInfo;
import io.quotaflow.records.Priority;
import io.quotaflow.records.TicketKey;
import io.quotaflow.settings.DispatcherSettings;
import io.quotaflow.settings.TenantSettings;
import io.quotaflow.testing.FakeModelClient;
import io.quotaflow.testing.Fixtures;
import io.quotaflow.testing.PipelineHarness;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A tenant's own cap ({@code tenant.<name>.rpm}) through the topology: its tickets wait, never rejected, and a ticket sent
 * again because a call did not answer it (cut at {@code max_tokens}) counts once against the cap.
 */
class TenantCapTopologyTest {

    private static final Priority[] PRIORITIES = {Priority.INTERACTIVE, Priority.STANDARD, Priority.BULK};

    private static long ofTenant(List<String> ids, String tenant) {
        return ids.stream().filter(k -> TicketKey.parse(k).tenant().equals(tenant)).count();
    }

    @Test
    void shouldClassifyACappedTenantsTicketsAtItsRateEvenWhenItsFirstCallsAreCutAtMaxTokens() {
        DispatcherSettings base = Fixtures.settings();
        DispatcherSettings settings = DispatcherSettings.builder(base.model(), base.quota().withRpm(1_000).withTpm(1_000_000), base.batch(),
                base.retry()).build().withTenants(TenantSettings.builder().rpm("t0", 60).build());
        Set<String> cut = new HashSet<>();
        // three calls of t0's tickets come back cut at max_tokens, as a cold completion budget can; each ticket once
        FakeModelClient client = new FakeModelClient(request -> {
            List<String> ids = request.items().stream().map(ModelItem::id).toList();
            if (ids.size() > 1 && ids.get(0).startsWith("t0:") && cut.size() < 30 && ids.stream().noneMatch(cut::contains)) {
                cut.addAll(ids);
                return new ModelOutcome.Answered(Map.of(), Map.of(), "length", request.prompt().promptTokens(), request.prompt().maxTokens(),
                        RateLimitInfo.EMPTY, 40);
            }
            return FakeModelClient.answer(request, "shipping", "medium");
        });
        try (PipelineHarness h = new PipelineHarness(settings, client)) {
            for (int i = 0; i < 240; i++) {
                String tenant = "t" + i % 3;
                h.pipe(PRIORITIES[i % 3], TicketKey.key(tenant, "cap-" + i), Fixtures.ticket("cap-" + i, tenant, "Order cap-" + i + " not delivered"));
            }
            List<String> ids = new ArrayList<>();
            h.advance(Duration.ofSeconds(5));
            h.classified().stream().map(TestRecord::key).forEach(ids::add);
            assertThat(cut).as("three calls of ten were cut").hasSize(30);
            assertThat(ofTenant(ids, "t1") + ofTenant(ids, "t2")).as("the others are not held").isEqualTo(160);
            assertThat(ofTenant(ids, "t0")).as("t0's minute's 60, the 30 cut among them counted once, and one a second since")
                    .isBetween(60L, 65L);

            h.advance(Duration.ofSeconds(16));
            h.classified().stream().map(TestRecord::key).forEach(ids::add);
            assertThat(ofTenant(ids, "t0")).as("80 within 60 + 20 tickets' time").isEqualTo(80);
            assertThat(ids).hasSize(240).doesNotHaveDuplicates();
            assertThat(h.deadLetters()).isEmpty();
        }
    }
}
