package io.quotaflow.it;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.Pipeline;
import io.quotaflow.admin.KafkaClients;
import io.quotaflow.testkit.OutcomeCounter;
import io.quotaflow.settings.DispatcherSettings;
import io.quotaflow.config.QuotaflowConfig;
import io.quotaflow.llm.OpenAiChatClient;
import io.quotaflow.records.Json;
import io.quotaflow.records.Priority;
import io.quotaflow.routing.ModelClients;
import io.quotaflow.settings.QuotaScope;
import io.quotaflow.settings.RouteSettings;
import io.quotaflow.settings.Routing;
import io.quotaflow.settings.BatchSettings;
import io.quotaflow.settings.ModelSettings;
import io.quotaflow.settings.QuotaSettings;
import io.quotaflow.settings.RecordLimits;
import io.quotaflow.settings.RetrySettings;
import io.quotaflow.settings.Secret;
import io.quotaflow.settings.TopicNames;
import io.quotaflow.simulator.ProviderSimulator;
import io.quotaflow.simulator.SimulatorConfig;
import io.quotaflow.testkit.EmbeddedKafkaBroker;
import io.quotaflow.testkit.KafkaBrokerExtension;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A roll-out that inserts a route ahead of route {@code p} keeps one owner for {@code p}'s quota
 * (docs/design.md, "Scope ownership"): between two runs of one application id, and while two instances
 * run two route lists at once. The simulator holds {@code p}'s key to its limit, so a second limiter for
 * that key shows as 429s; every ticket is answered once, re-published ones with their newer text, and
 * cancels reach the ticket wherever it waits.
 */
@Order(3) // among the slower IT classes: started early (pom.xml, Failsafe)
@ExtendWith(KafkaBrokerExtension.class)
@Execution(ExecutionMode.CONCURRENT) // each test has its own simulators, topics and application ids
class RouteRolloutIT {

    private static final String KEY_P = "sk-it-rollout-p";
    private static final String KEY_Q = "sk-it-rollout-q";
    /** p's key: the binding limit, low enough that a backlog waits and two limiters would exceed it. */
    private static final int P_RPM = 40;
    private static final int P_TPM = 20_000;

    private EmbeddedKafkaBroker broker;
    private TopicNames topics;
    private ProviderSimulator simP;
    private ProviderSimulator simQ;

    @BeforeEach
    void start() {
        broker = KafkaBrokerExtension.broker();
        topics = ItSupport.applyTopics(broker, KafkaBrokerExtension.uniqueName("RouteRolloutIT") + ".");
        simP = ProviderSimulator.start(SimulatorConfig.builder().port(0).rpm(P_RPM).tpm(P_TPM).burstSeconds(5)
                .apiKeys(Set.of(KEY_P)).baseLatencyMs(30).build());
        simQ = ProviderSimulator.start(SimulatorConfig.builder().port(0).rpm(6_000).tpm(2_000_000).burstSeconds(5)
                .apiKeys(Set.of(KEY_Q)).baseLatencyMs(30).build());
    }

    @AfterEach
    void stop() {
        simP.close();
        simQ.close();
    }

    private static RouteSettings route(String name, ProviderSimulator sim, String key, int rpm, int tpm) {
        ModelSettings model = ModelSettings.of(URI.create(sim.baseUrl()), "gpt-4o-mini", Secret.of(key));
        return new RouteSettings(name, model, QuotaSettings.ofDefaults().withRpm(rpm).withTpm(tpm), List.of(), null, null, null, 0, 0);
    }

    private RouteSettings p() {
        return route("p", simP, KEY_P, P_RPM, P_TPM);
    }

    private RouteSettings q() {
        return route("q", simQ, KEY_Q, 6_000, 2_000_000);
    }

    /** A configuration with {@code routes} in this order; tickets go to route p. */
    private QuotaflowConfig config(String applicationId, String stateName, RouteSettings... routes) throws Exception {
        Map<String, RouteSettings> byName = new LinkedHashMap<>();
        for (RouteSettings r : routes) {
            byName.put(r.name(), r);
        }
        Routing routing = new Routing(byName, "p", Map.of(), Map.of(), Map.of(), Duration.ZERO);
        DispatcherSettings settings = DispatcherSettings.of(routing, BatchSettings.ofDefaults(), RetrySettings.ofDefaults(),
                RecordLimits.ofDefaults(), topics).withDispatchPartitions(ItSupport.IT_PARTITIONS);
        return new QuotaflowConfig(broker.bootstrapServers(), topics.prefix() + applicationId,
                io.quotaflow.testkit.TestDirs.temporary("qf-" + stateName), -1, Map.of(), settings);
    }

    private static byte[] ticket(String id, String body) {
        return ("{\"id\":\"" + id + "\",\"subject\":\"Ticket " + id + "\",\"body\":\"" + body + "\"}").getBytes(StandardCharsets.UTF_8);
    }

    private static String oldText(int i) {
        return "My parcel " + i + " has not arrived and the tracking has not moved for " + (i % 9 + 2) + " days.";
    }

    private static String newText(int i) {
        return "I cannot log in to my account " + i + ": the password reset link never comes.";
    }

    private KafkaProducer<String, byte[]> producer() {
        return new KafkaProducer<>(KafkaClients.properties(broker.bootstrapServers(), Map.of()), new StringSerializer(),
                new ByteArraySerializer());
    }

    private void publish(KafkaProducer<String, byte[]> producer, String prefix, int from, int to, boolean newer) {
        for (int i = from; i < to; i++) {
            String id = prefix + "-" + i;
            producer.send(new ProducerRecord<>(topics.input(Priority.STANDARD), id, ticket(id, newer ? newText(i) : oldText(i))));
        }
        producer.flush();
    }

    private void cancel(KafkaProducer<String, byte[]> producer, List<String> ids) {
        ids.forEach(id -> producer.send(new ProducerRecord<>(topics.input(Priority.STANDARD), id, null)));
        producer.flush();
    }

    private static void awaitClassified(OutcomeCounter counter, Set<String> ids, Duration atMost) {
        await().atMost(atMost).pollInterval(Duration.ofMillis(250)).until(() -> {
            counter.poll(Duration.ofMillis(100));
            return counter.classifiedIds().containsAll(ids);
        });
    }

    private static Set<String> ids(String prefix, int from, int to) {
        Set<String> out = new LinkedHashSet<>();
        for (int i = from; i < to; i++) {
            out.add(prefix + "-" + i);
        }
        return out;
    }

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void shouldKeepOneOwnerPerQuotaWhenARouteIsInsertedAheadOfIt() throws Exception {
        // the inserted route's scope and p's hash to different partitions or the same: either way p's must not move
        int partition = QuotaScope.dispatchPartition(p().scope(), ItSupport.IT_PARTITIONS);
        String app = "quotaflow-rollout";
        int backlog = 120;
        List<String> cancelled = List.of("R-115", "R-116", "R-117", "R-118", "R-119");
        Set<String> republished = ids("R", 100, 110);
        try (OutcomeCounter counter = new OutcomeCounter(broker.bootstrapServers(), Map.of(), topics.prefix());
             KafkaProducer<String, byte[]> producer = producer()) {
            try (Pipeline before = Pipeline.start(config(app, "rollout-1", p()), ModelClients.perScope(r -> new OpenAiChatClient(r.model())))) {
                assertThat(before.awaitRunning(Duration.ofSeconds(60))).isTrue();
                publish(producer, "R", 0, backlog, false);
                await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(200)).until(() -> {
                    counter.poll(Duration.ofMillis(100));
                    return counter.classified() >= 15;
                });
            }
            counter.poll(Duration.ofMillis(200));
            assertThat(counter.classified()).as("a backlog waits when the first run stops").isLessThan(backlog - 40);

            // the roll-out: q inserted ahead of p, p's backlog still waiting in the first run's stores
            try (Pipeline after = Pipeline.start(config(app, "rollout-2", q(), p()),
                    ModelClients.perScope(r -> new OpenAiChatClient(r.model())))) {
                assertThat(after.awaitRunning(Duration.ofSeconds(60))).isTrue();
                cancel(producer, cancelled);
                publish(producer, "R", 100, 110, true);
                publish(producer, "S", 0, 40, false);
                Set<String> expected = new LinkedHashSet<>(ids("R", 0, backlog));
                cancelled.forEach(expected::remove);
                expected.addAll(ids("S", 0, 40));
                awaitClassified(counter, expected, Duration.ofMinutes(3));
                ItSupport.awaitQuiet(Duration.ofSeconds(3), counter);

                assertThat(counter.duplicates()).as("one result per ticket").isZero();
                assertThat(counter.classifiedIds()).as("cancels reach the ticket where it waits").doesNotContainAnyElementsOf(cancelled);
                for (String id : republished) {
                    JsonNode result = Json.MAPPER.readTree(counter.results().get(id));
                    assertThat(result.get("category").asText()).as("%s is answered with its newer text", id).isEqualTo("account");
                }
                assertThat(simP.stats().http429()).as("one limiter for p's key (partition %d)", partition).isZero();
                System.out.printf("RouteRolloutIT (insert): %d calls on p's key, %d tokens admitted, 0 x 429%n",
                        simP.stats().totalRequests(), simP.stats().tokensAdmitted());
            }
        }
    }

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void shouldKeepOneOwnerPerQuotaWhileTwoInstancesRunDifferentRouteLists() throws Exception {
        String app = "quotaflow-rollout-mixed";
        List<Pipeline> instances = new ArrayList<>();
        List<String> cancelled = List.of("M-145", "M-146", "M-147", "M-148", "M-149");
        try (OutcomeCounter counter = new OutcomeCounter(broker.bootstrapServers(), Map.of(), topics.prefix());
             KafkaProducer<String, byte[]> producer = producer()) {
            instances.add(Pipeline.start(config(app, "mixed-old", p()), ModelClients.perScope(r -> new OpenAiChatClient(r.model()))));
            instances.add(Pipeline.start(config(app, "mixed-new", q(), p()), ModelClients.perScope(r -> new OpenAiChatClient(r.model()))));
            for (Pipeline instance : instances) {
                assertThat(instance.awaitRunning(Duration.ofSeconds(90))).isTrue();
            }
            publish(producer, "M", 0, 150, false);
            await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(200)).until(() -> {
                counter.poll(Duration.ofMillis(100));
                return counter.classified() >= 20;
            });
            cancel(producer, cancelled);
            Set<String> expected = ids("M", 0, 150);
            cancelled.forEach(expected::remove);
            awaitClassified(counter, expected, Duration.ofMinutes(3));
            ItSupport.awaitQuiet(Duration.ofSeconds(3), counter);

            assertThat(counter.duplicates()).as("one result per ticket").isZero();
            assertThat(counter.classifiedIds()).as("cancels reach the ticket where it waits").doesNotContainAnyElementsOf(cancelled);
            assertThat(simP.stats().http429()).as("one limiter for p's key across both configurations").isZero();
            System.out.printf("RouteRolloutIT (mixed): %d calls on p's key, %d tokens admitted, 0 x 429%n",
                    simP.stats().totalRequests(), simP.stats().tokensAdmitted());
        } finally {
            for (Pipeline instance : instances) {
                instance.close();
            }
        }
    }
}
