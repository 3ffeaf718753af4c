package io.quotaflow.it;

import io.quotaflow.Pipeline;
import io.quotaflow.testkit.OutcomeCounter;
import io.quotaflow.settings.Dialect;
import io.quotaflow.settings.RetrySettings;
import io.quotaflow.simulator.ProviderSimulator;
import io.quotaflow.simulator.SimDialect;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Azure: its 429s wait {@code retry-after-ms} on the deployment URL.
 */
@Order(8) // among the slowest IT classes: started first, the slowest first (pom.xml, Failsafe)
class AzureDialectIT extends DialectItBase {

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void shouldWaitOutAzureRateLimitsOnItsDeploymentUrl() throws Exception {
        // one call every 5 s after the first: the batches of two meet 429s whose retry-after-ms says so
        try (ProviderSimulator azure = sim(SimDialect.AZURE, 12, 5);
             Pipeline pipeline = Pipeline.start(config("azure", RetrySettings.ofDefaults(), route("azure", azure, Dialect.AZURE, List.of())));
             OutcomeCounter counter = new OutcomeCounter(broker.bootstrapServers(), Map.of(), topics.prefix())) {
            Set<String> ids = ItSupport.publish(broker, topics, "AZ", 10);

            awaitAll(counter, ids);
            long admitted = azure.stats().requestsWithStatus(200);
            long limited = azure.stats().http429();
            assertThat(admitted).as("every call reached the deployment with its api-key").isPositive();
            assertThat(limited).as("the simulator held the calls back with 429s").isPositive();
            assertThat(limited).as("each 429 waits retry-after-ms").isLessThanOrEqualTo(waitedOut(admitted));
            System.out.printf("AzureDialectIT azure: %d tickets in %d admitted calls, %d 429s with retry-after-ms%n", ids.size(), admitted, limited);
        }
    }
}
