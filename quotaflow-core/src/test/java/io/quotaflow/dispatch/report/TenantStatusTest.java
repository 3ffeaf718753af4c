package io.quotaflow.dispatch.report;

import io.quotaflow.dispatch.queue.PendingQueue;
import io.quotaflow.dispatch.queue.RefBuilder;

import io.quotaflow.settings.TenantSettings;
import io.quotaflow.records.Priority;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class TenantStatusTest {

    private static final long T0 = 1_700_000_000_000L;

    @Test
    void shouldShowEachTenantsDepthShareAndCapAndSumTheTenantsBeyondFifty() {
        PendingQueue q = new PendingQueue(TenantSettings.builder().tpm("capped", 100).build(), 0);
        for (int t = 0; t < 60; t++) {
            for (int i = 0; i <= t; i++) {
                q.add(Priority.BULK, RefBuilder.ref("t" + t + "-" + i).tenant("t" + t).tokens(10).at(i).bytes(10).build());
            }
        }
        for (int i = 0; i < 70; i++) {
            q.add(Priority.STANDARD, RefBuilder.ref("c-" + i).tenant("capped").tokens(100).at(i).bytes(10).build());
        }
        q.admit(q.propose(10, p -> 10_000, Long.MAX_VALUE, T0).orElseThrow(), T0);

        Map<String, TenantState> tenants = SnapshotTaker.tenants(q, T0 + 1_000);

        assertThat(tenants).hasSize(TenantState.MAX_TENANTS + 1).containsKey(TenantState.OTHER);
        assertThat(tenants.get("t59").depth()).isEqualTo(60);
        assertThat(tenants).doesNotContainKey("t0");
        assertThat(tenants.get("capped")).isEqualTo(new TenantState(69, 1.0, true));
        int named = tenants.entrySet().stream().filter(e -> !e.getKey().equals(TenantState.OTHER))
                .mapToInt(e -> e.getValue().depth()).sum();
        assertThat(named + tenants.get(TenantState.OTHER).depth()).isEqualTo(q.size());
        assertThat(SnapshotTaker.tenants(q, T0 + 61_000).get("capped").share()).as("the minute has passed").isCloseTo(0, within(1e-9));
    }
}
