package io.quotaflow.topology;

import io.quotaflow.settings.DispatcherSettings;
import io.quotaflow.records.DeadLetterHeaders;
import io.quotaflow.records.Priority;
import io.quotaflow.settings.TenantAccess;
import io.quotaflow.settings.TenantSettings;
import io.quotaflow.settings.TopicNames;
import io.quotaflow.testing.FakeModelClient;
import io.quotaflow.testing.Fixtures;
import io.quotaflow.testing.PipelineHarness;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Where a ticket's tenant comes from ({@code tenants.from}) and which tenants exist (docs/design.md, "Tenants"). */
class TenantSourceTopologyTest {

    private static byte[] ticket(String tenant, String id) {
        return ("{\"id\":\"" + id + "\"" + (tenant == null ? "" : ",\"tenant\":\"" + tenant + "\"")
                + ",\"subject\":\"Invoice " + id + "\",\"body\":\"Please check invoice " + id + ".\"}").getBytes(StandardCharsets.UTF_8);
    }

    private static DispatcherSettings settings(TenantAccess.From from, TenantAccess.Unknown unknown, String... allowed) {
        TenantAccess.Builder b = TenantAccess.builder().from(from).unknown(unknown).allowed(List.of(allowed));
        if (from == TenantAccess.From.PRINCIPAL) {
            for (String t : allowed) {
                b.principal(t, "User:" + t);
            }
        }
        return Fixtures.settings().withTenants(TenantSettings.NONE.withAccess(b.build()));
    }

    private static DispatcherSettings keyed(String... allowed) {
        return settings(TenantAccess.From.KEY, TenantAccess.Unknown.DEAD_LETTER, allowed);
    }

    private static String header(TestRecord<String, byte[]> record, String name) {
        return new String(record.headers().lastHeader(name).value(), StandardCharsets.UTF_8);
    }

    private static TestInputTopic<String, byte[]> topic(PipelineHarness h, String tenant, Priority priority) {
        return h.driver().createInputTopic(TenantAccess.topic(TopicNames.DEFAULT, tenant, priority), new StringSerializer(),
                new ByteArraySerializer(), PipelineHarness.START, Duration.ZERO);
    }

    @Test
    void shouldDeadLetterAKeyOfAnotherTenantThanTheBodyAsBadInputAndAskNothing() {
        FakeModelClient client = FakeModelClient.labellingAll("billing", "low");
        try (PipelineHarness h = new PipelineHarness(keyed("acme", "globex"), client)) {
            h.pipe(Priority.STANDARD, "globex:1042", ticket("acme", "1042"));
            h.pipe(Priority.STANDARD, "1043", ticket("acme", "1043"));
            h.pipe(Priority.STANDARD, "acme:1044", ticket("acme", "1044"));
            h.advance(Duration.ofSeconds(5));

            List<TestRecord<String, byte[]>> dead = h.deadLetters();
            assertThat(dead).extracting(TestRecord::key).containsExactlyInAnyOrder("globex:1042", "1043");
            assertThat(dead).allSatisfy(d -> assertThat(header(d, DeadLetterHeaders.ERROR_KIND)).isEqualTo("bad-input"));
            assertThat(header(dead.get(0), DeadLetterHeaders.ERROR_MESSAGE))
                    .isEqualTo("the record key names tenant 'globex' but the ticket's tenant is 'acme' (tenants.from=key)");
            assertThat(h.classified()).extracting(TestRecord::key).containsExactly("acme:1044");
            assertThat(client.requestedIds()).containsExactly("acme:1044");
        }
    }

    @Test
    void shouldDeadLetterAnInventedTenantAsUnknownTenantWhenAListIsSet() {
        FakeModelClient client = FakeModelClient.labellingAll("billing", "low");
        try (PipelineHarness h = new PipelineHarness(keyed("acme", "globex"), client)) {
            h.pipe(Priority.STANDARD, "initech:1", ticket("initech", "1"));
            h.pipe(Priority.STANDARD, "2", ticket(null, "2"));
            h.advance(Duration.ofSeconds(5));

            List<TestRecord<String, byte[]>> dead = h.deadLetters();
            assertThat(dead).extracting(TestRecord::key).containsExactly("initech:1");
            assertThat(header(dead.get(0), DeadLetterHeaders.ERROR_KIND)).isEqualTo("unknown-tenant");
            assertThat(header(dead.get(0), DeadLetterHeaders.ERROR_MESSAGE)).isEqualTo("tenant 'initech' is not in tenants.allowed");
            assertThat(h.classified()).as("the default tenant is always known").extracting(TestRecord::key).containsExactly("2");
        }
    }

    @Test
    void shouldTakeAnInventedTenantAsTheDefaultTenantsWhenUnknownIsDefault() {
        FakeModelClient client = FakeModelClient.labellingAll("billing", "low");
        try (PipelineHarness h = new PipelineHarness(settings(TenantAccess.From.KEY, TenantAccess.Unknown.DEFAULT, "acme"), client)) {
            h.pipe(Priority.STANDARD, "initech:1", ticket("initech", "1"));
            h.pipe(Priority.STANDARD, "hooli:2", ticket("hooli", "2"));
            h.advance(Duration.ofSeconds(5));

            assertThat(h.deadLetters()).isEmpty();
            assertThat(h.classified()).extracting(TestRecord::key).containsExactlyInAnyOrder("1", "2");
            assertThat(client.requestedIds()).containsExactlyInAnyOrder("1", "2");
        }
    }

    @Test
    void shouldTrustTheBodysTenantUnderBody() {
        FakeModelClient client = FakeModelClient.labellingAll("billing", "low");
        try (PipelineHarness h = new PipelineHarness(settings(TenantAccess.From.BODY, TenantAccess.Unknown.DEAD_LETTER), client)) {
            h.pipe(Priority.STANDARD, "globex:1042", ticket("acme", "1042"));
            h.advance(Duration.ofSeconds(5));

            assertThat(h.deadLetters()).isEmpty();
            assertThat(h.classified()).extracting(TestRecord::key).containsExactly("acme:1042");
        }
    }

    @Test
    void shouldIgnoreAProducersQfTenantHeader() {
        FakeModelClient client = FakeModelClient.labellingAll("billing", "low");
        try (PipelineHarness h = new PipelineHarness(keyed("acme", "globex"), client)) {
            RecordHeaders forged = new RecordHeaders();
            forged.add(DeadLetterHeaders.TENANT, "globex".getBytes(StandardCharsets.UTF_8));
            h.pipe(Priority.STANDARD, "acme:7", ticket("acme", "7"), forged);
            h.advance(Duration.ofSeconds(5));

            assertThat(h.classified()).extracting(TestRecord::key).containsExactly("acme:7");
            assertThat(client.requestedIds()).containsExactly("acme:7");
        }
    }

    @Test
    void shouldTakeTheTenantOfTheTopicAndDeadLetterABodyClaimingAnother() {
        FakeModelClient client = FakeModelClient.labellingAll("billing", "low");
        try (PipelineHarness h = new PipelineHarness(settings(TenantAccess.From.TOPIC, TenantAccess.Unknown.DEAD_LETTER, "acme",
                "globex"), client)) {
            TestInputTopic<String, byte[]> acme = topic(h, "acme", Priority.STANDARD);
            acme.pipeInput("7", ticket(null, "7"));
            acme.pipeInput("8", ticket("acme", "8"));
            acme.pipeInput("globex:9", ticket("globex", "9"));
            h.pipe(Priority.STANDARD, "globex:10", ticket("globex", "10"));
            h.advance(Duration.ofSeconds(5));

            assertThat(h.classified()).extracting(TestRecord::key).containsExactlyInAnyOrder("acme:7", "acme:8");
            List<TestRecord<String, byte[]>> dead = h.deadLetters();
            assertThat(dead).extracting(TestRecord::key).containsExactlyInAnyOrder("globex:9", "globex:10");
            assertThat(dead).allSatisfy(d -> assertThat(header(d, DeadLetterHeaders.ERROR_KIND)).isEqualTo("bad-input"));
            assertThat(dead).extracting(d -> header(d, DeadLetterHeaders.ERROR_MESSAGE)).containsExactlyInAnyOrder(
                    "the topic is tenant 'acme''s but the ticket's tenant is 'globex' (tenants.from=topic)",
                    "topic 'tickets.standard' is no tenant's input topic (tenants.from=topic)");
        }
    }

    @Test
    void shouldNotLetATombstoneOnAnotherTenantsTopicCancel() {
        FakeModelClient client = FakeModelClient.labellingAll("billing", "low");
        try (PipelineHarness h = new PipelineHarness(settings(TenantAccess.From.PRINCIPAL, TenantAccess.Unknown.DEAD_LETTER, "acme",
                "globex"), client)) {
            topic(h, "acme", Priority.BULK).pipeInput("W", ticket(null, "W"));
            topic(h, "acme", Priority.BULK).pipeInput("V", ticket(null, "V"));
            h.advance(Duration.ofMillis(100));
            // globex's producer names acme's tickets: on its own topic that cancels nothing of acme's
            topic(h, "globex", Priority.BULK).pipeInput("acme:W", (byte[]) null);
            topic(h, "globex", Priority.BULK).pipeInput("W", (byte[]) null);
            // acme's producer cancels its own
            topic(h, "acme", Priority.BULK).pipeInput("V", (byte[]) null);
            h.advance(Duration.ofSeconds(30));

            assertThat(h.classified()).extracting(TestRecord::key).containsExactly("acme:W");
            assertThat(h.deadLetters()).isEmpty();
        }
    }

    @Test
    void shouldNotLetAKeyOfAnotherTenantCancelUnderKey() {
        FakeModelClient client = FakeModelClient.labellingAll("billing", "low");
        try (PipelineHarness h = new PipelineHarness(keyed("acme", "globex"), client)) {
            h.pipe(Priority.BULK, "acme:W", ticket("acme", "W"));
            h.pipe(Priority.BULK, "globex:W", ticket("globex", "W"));
            h.advance(Duration.ofMillis(100));
            h.pipe(Priority.BULK, "globex:W", null);
            h.advance(Duration.ofSeconds(30));

            assertThat(h.classified()).extracting(TestRecord::key).containsExactly("acme:W");
        }
    }
}
