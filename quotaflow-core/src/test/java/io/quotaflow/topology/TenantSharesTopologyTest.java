package io.quotaflow.topology;

import io.quotaflow.records.TicketKey;
import io.quotaflow.settings.DispatcherSettings;
import io.quotaflow.settings.TenantSettings;
import io.quotaflow.testing.FakeModelClient;
import io.quotaflow.testing.Fixtures;
import io.quotaflow.testing.PipelineHarness;
import io.quotaflow.records.Priority;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import io.quotaflow.dispatch.report.DispatcherListener;

import static org.assertj.core.api.Assertions.assertThat;

/** Tenants share a rate-limited route's admitted tokens by weight, end to end through the topology. */
class TenantSharesTopologyTest {

    /** Records what each tenant was admitted. */
    private static final class Admissions implements DispatcherListener {
        final Map<String, Long> tokens = new ConcurrentHashMap<>();

        @Override
        public void tenantAdmitted(String scope, String tenant, long count) {
            tokens.merge(tenant, count, Long::sum);
        }
    }

    private static long count(List<TestRecord<String, byte[]>> records, String prefix) {
        return records.stream().filter(r -> io.quotaflow.records.TicketKey.parse(r.key()).id().startsWith(prefix)).count();
    }

    @Test
    void shouldShareAdmittedTokensThreeToOneByWeightWhateverTheTicketSizes() {
        DispatcherSettings base = Fixtures.settings();
        DispatcherSettings settings = DispatcherSettings.builder(base.model(), base.quota().withRpm(60), base.batch(), base.retry()).build()
                .withTenants(TenantSettings.builder().weight("gold", 3).weight("tin", 1).build());
        Admissions admissions = new Admissions();
        try (PipelineHarness h = new PipelineHarness(settings, FakeModelClient.labellingAll("billing", "low"), admissions)) {
            for (int i = 0; i < 300; i++) {
                h.pipe(Priority.BULK, TicketKey.key("tin", "tin-" + i), Fixtures.ticket("tin-" + i, "tin",
                        "The export job fails every night with a long stack trace, details follow. ".repeat(6)));
                h.pipe(Priority.BULK, TicketKey.key("gold", "gold-" + i), Fixtures.ticket("gold-" + i, "gold", "Refund please."));
            }
            h.advance(Duration.ofSeconds(25));

            List<TestRecord<String, byte[]>> classified = h.classified();
            long gold = count(classified, "gold-");
            long tin = count(classified, "tin-");
            assertThat(gold).as("both still have work").isPositive().isLessThan(300);
            assertThat(tin).isPositive().isLessThan(300);
            double ratio = (double) admissions.tokens.get("gold") / admissions.tokens.get("tin");
            assertThat(ratio).as("admitted tokens gold:tin with weights 3:1").isBetween(2.6, 3.4);
            assertThat(gold).as("gold's tickets are shorter: many more of them go").isGreaterThan(4 * tin);
        }
    }
}
