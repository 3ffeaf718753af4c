package io.quotaflow.it;

import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.trace.data.LinkData;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.quotaflow.Pipeline;
import io.quotaflow.admin.KafkaClients;
import io.quotaflow.config.QuotaflowConfig;
import io.quotaflow.records.Priority;
import io.quotaflow.settings.MetricsSettings;
import io.quotaflow.settings.QuotaSettings;
import io.quotaflow.settings.RetrySettings;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Traces on the real broker (docs/operations.md, "Traces"): tickets whose producers send a {@code traceparent},
 * exported through the SDK's autoconfiguration to an in-memory exporter, and over OTLP/HTTP (protobuf) to a
 * receiver in the test that then goes away.
 */
class TracesIT {

    @RegisterExtension
    static final ItSupport it = ItSupport.of("sk-it-traces", 1_000, 400_000, 40);

    private static final AttributeKey<String> TICKET = AttributeKey.stringKey("quotaflow.ticket.id");

    /** A producer span of its own trace for each ticket: ticket key to {@code traceparent}. */
    private static Map<String, String> producerSpans(String prefix, int n) {
        Map<String, String> parents = new LinkedHashMap<>();
        ThreadLocalRandom r = ThreadLocalRandom.current();
        for (int i = 0; i < n; i++) {
            parents.put("t" + i % 3 + ":" + prefix + "-" + i, String.format("00-%016x%016x-%016x-01", r.nextLong() | 1, r.nextLong(),
                    r.nextLong() | 1));
        }
        return parents;
    }

    private static void publish(Map<String, String> parents) {
        Map<String, Object> props = new HashMap<>(KafkaClients.properties(it.bootstrapServers(), Map.of()));
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(props)) {
            for (Map.Entry<String, String> e : parents.entrySet()) {
                String tenant = e.getKey().substring(0, e.getKey().indexOf(':'));
                String id = e.getKey().substring(e.getKey().indexOf(':') + 1);
                String json = "{\"id\":\"" + id + "\",\"subject\":\"Order " + id + " not delivered\",\"body\":\"My parcel "
                        + id + " has not moved for a week.\",\"tenant\":\"" + tenant + "\",\"priority\":\"standard\"}";
                ProducerRecord<String, byte[]> record = new ProducerRecord<>(it.topics().input(Priority.STANDARD), e.getKey(),
                        json.getBytes(StandardCharsets.UTF_8));
                record.headers().add("traceparent", e.getValue().getBytes(StandardCharsets.US_ASCII));
                producer.send(record);
            }
            producer.flush();
        }
    }

    /** The results' {@code traceparent} headers by key, read committed, once {@code keys} all have one. */
    private static Map<String, List<String>> results(KafkaConsumer<String, byte[]> consumer, Set<String> keys, Duration atMost) {
        Map<String, List<String>> byKey = new HashMap<>();
        try (io.quotaflow.testkit.OutcomeCounter counter = it.counter()) {
            await().atMost(atMost).pollInterval(Duration.ofMillis(50)).until(() -> {
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    Header h = r.headers().lastHeader("traceparent");
                    byKey.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(h == null ? null : new String(h.value(), StandardCharsets.US_ASCII));
                }
                counter.poll(Duration.ofMillis(10));
                if (counter.deadLetters().keySet().stream().anyMatch(keys::contains)) {
                    throw new AssertionError("dead letters: " + counter.deadLetters());
                }
                return byKey.keySet().containsAll(keys);
            });
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            throw new AssertionError("results of " + byKey.keySet() + " of " + keys, e);
        }
        return byKey;
    }

    private static KafkaConsumer<String, byte[]> resultConsumer() {
        Map<String, Object> props = new HashMap<>(KafkaClients.properties(it.bootstrapServers(), Map.of()));
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(props, new StringDeserializer(), new ByteArrayDeserializer());
        List<org.apache.kafka.common.TopicPartition> partitions = consumer.partitionsFor(it.topics().classified(), Duration.ofSeconds(30))
                .stream().map(p -> new org.apache.kafka.common.TopicPartition(p.topic(), p.partition())).toList();
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        return consumer;
    }

    private static String traceId(String traceparent) {
        return traceparent.substring(3, 35);
    }

    private static String spanId(String traceparent) {
        return traceparent.substring(36, 52);
    }

    private QuotaflowConfig traced(String applicationId, String exporter) {
        QuotaflowConfig config = it.config(applicationId, QuotaSettings.ofDefaults().withRpm(1_000).withTpm(400_000),
                RetrySettings.ofDefaults());
        return config.withMetrics(config.metrics().withTraces(new MetricsSettings.Traces(exporter, false)));
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void shouldParentEveryTicketByItsProducerLinkEveryTicketOfACallAndCarryItsTraceOnTheResult() throws Exception {
        Map<String, String> parents = producerSpans("TRM", 20);
        Map<String, List<String>> results;
        try (KafkaConsumer<String, byte[]> consumer = resultConsumer();
             Pipeline pipeline = Pipeline.start(traced("traces-memory", MemorySpans.NAME))) {
            assertThat(pipeline.awaitRunning(Duration.ofSeconds(60))).isTrue();
            publish(parents);
            results = results(consumer, parents.keySet(), Duration.ofMinutes(2));
        }
        // closed: the SDK has flushed every span
        Map<String, String> traceOfTicket = new HashMap<>();
        parents.forEach((key, tp) -> traceOfTicket.put(key.substring(key.indexOf(':') + 1), traceId(tp)));
        List<SpanData> spans = MemorySpans.finished().stream()
                .filter(s -> traceOfTicket.containsValue(s.getTraceId()) || s.getKind() == SpanKind.CLIENT).toList();

        // every result once, carrying its ticket's trace (the topic holds the class's other test's results too)
        results.keySet().retainAll(parents.keySet());
        assertThat(results.keySet()).isEqualTo(parents.keySet());
        results.forEach((key, tps) -> {
            assertThat(tps).hasSize(1);
            assertThat(tps.get(0)).isNotNull();
            assertThat(traceId(tps.get(0))).isEqualTo(traceId(parents.get(key)));
        });
        // every ticket's intake span: the child of its producer's span
        Map<String, SpanData> intakes = spans.stream().filter(s -> s.getName().equals("quotaflow intake"))
                .filter(s -> traceOfTicket.containsKey(s.getAttributes().get(TICKET)))
                .collect(Collectors.toMap(s -> s.getAttributes().get(TICKET), s -> s, (a, b) -> a));
        assertThat(intakes).hasSize(20);
        parents.forEach((key, tp) -> {
            SpanData intake = intakes.get(key.substring(key.indexOf(':') + 1));
            assertThat(intake.getTraceId()).isEqualTo(traceId(tp));
            assertThat(intake.getParentSpanId()).isEqualTo(spanId(tp));
        });
        // the GenAI call spans: each links every ticket of its batch; together they serve every ticket's trace
        List<SpanData> calls = spans.stream().filter(s -> s.getKind() == SpanKind.CLIENT)
                .filter(s -> s.getLinks().stream().anyMatch(l -> traceOfTicket.containsValue(l.getSpanContext().getTraceId())))
                .toList();
        assertThat(calls).isNotEmpty().allSatisfy(call -> {
            assertThat(call.getName()).isEqualTo("chat gpt-4o-mini");
            assertThat(call.getAttributes().get(AttributeKey.stringKey("gen_ai.operation.name"))).isEqualTo("chat");
            assertThat(call.getAttributes().get(AttributeKey.longKey("gen_ai.usage.input_tokens"))).isPositive();
            assertThat((long) call.getLinks().size()).isEqualTo(call.getAttributes().get(AttributeKey.longKey("quotaflow.batch.size")));
            assertThat(call.getTraceId()).isEqualTo(call.getLinks().get(0).getSpanContext().getTraceId());
        });
        Set<String> served = calls.stream().flatMap(c -> c.getLinks().stream()).map(LinkData::getSpanContext)
                .map(c -> c.getTraceId()).collect(Collectors.toSet());
        assertThat(served).containsAll(traceOfTicket.values());
        // no prompt or answer content by default
        assertThat(spans).allSatisfy(s -> {
            assertThat(s.getAttributes().get(AttributeKey.stringKey("gen_ai.input.messages"))).isNull();
            assertThat(s.getAttributes().asMap().values().stream().map(String::valueOf)).noneMatch(v -> v.contains("parcel"));
        });
        System.out.printf("TracesIT: %d spans, %d call spans for 20 tickets%n", spans.size(), calls.size());
    }

    /** A collector's OTLP/HTTP endpoint: counts the POSTs to /v1/traces and keeps their bodies' text. */
    private static final class Receiver implements AutoCloseable {
        final HttpServer server;
        final AtomicInteger posts = new AtomicInteger();
        final AtomicReference<String> seen = new AtomicReference<>("");

        Receiver() throws IOException {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            server.createContext("/v1/traces", exchange -> {
                try (InputStream in = exchange.getRequestBody()) {
                    ByteArrayOutputStream body = new ByteArrayOutputStream();
                    in.transferTo(body);
                    if ("POST".equals(exchange.getRequestMethod())
                            && String.valueOf(exchange.getRequestHeaders().getFirst("Content-Type")).startsWith("application/x-protobuf")) {
                        posts.incrementAndGet();
                        // protobuf keeps strings as UTF-8 bytes: the span names and ticket ids are readable in it
                        String text = body.toString(StandardCharsets.ISO_8859_1);
                        seen.accumulateAndGet(text, (a, b) -> a.length() > 1_000_000 ? a : a + b);
                    }
                }
                exchange.getResponseHeaders().add("Content-Type", "application/x-protobuf");
                exchange.sendResponseHeaders(200, -1);
                exchange.close();
            });
            server.start();
        }

        String endpoint() {
            return "http://127.0.0.1:" + server.getAddress().getPort();
        }

        @Override
        public void close() {
            server.stop(0);
        }
    }

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void shouldExportOverOtlpHttpAndKeepClassifyingAtTheSamePaceWhenTheReceiverIsDown() throws Exception {
        Receiver receiver = new Receiver();
        // the standard OpenTelemetry settings, as system properties (OTEL_* variables are their environment form)
        System.setProperty("otel.exporter.otlp.endpoint", receiver.endpoint());
        System.setProperty("otel.exporter.otlp.protocol", "http/protobuf");
        System.setProperty("otel.bsp.schedule.delay", "200");
        try (KafkaConsumer<String, byte[]> consumer = resultConsumer();
             Pipeline pipeline = Pipeline.start(traced("traces-otlp", "otlp"))) {
            assertThat(pipeline.awaitRunning(Duration.ofSeconds(60))).isTrue();

            Map<String, String> up = producerSpans("TRU", 20);
            long start = System.nanoTime();
            publish(up);
            Map<String, List<String>> first = results(consumer, up.keySet(), Duration.ofMinutes(1));
            long upMs = (System.nanoTime() - start) / 1_000_000;
            await().atMost(Duration.ofSeconds(20)).until(() -> up.keySet().stream()
                    .allMatch(k -> receiver.seen.get().contains(k.substring(k.indexOf(':') + 1))));
            assertThat(receiver.posts.get()).isPositive();
            assertThat(receiver.seen.get()).contains("chat gpt-4o-mini").contains("quotaflow intake").contains("gen_ai.operation.name");

            receiver.close();
            int postsWhenStopped = receiver.posts.get();
            Map<String, String> down = producerSpans("TRD", 20);
            start = System.nanoTime();
            publish(down);
            Map<String, List<String>> second = results(consumer, down.keySet(), Duration.ofMinutes(1));
            long downMs = (System.nanoTime() - start) / 1_000_000;
            ItSupport.awaitQuiet(Duration.ofSeconds(1), Duration.ofSeconds(30), () -> {
                consumer.poll(Duration.ofMillis(100)).forEach(r -> second.computeIfAbsent(r.key(), k -> new ArrayList<>()).add("late"));
                return second.values().stream().mapToInt(List::size).sum();
            });

            // every ticket once, each result with its trace, at the pace of the receiver's up time
            Set<String> all = new HashSet<>(up.keySet());
            all.addAll(down.keySet());
            assertThat(first.values()).allSatisfy(v -> assertThat(v).hasSize(1));
            assertThat(second.keySet()).containsAll(down.keySet());
            assertThat(second.values()).allSatisfy(v -> assertThat(v).hasSize(1));
            down.forEach((key, tp) -> assertThat(traceId(second.get(key).get(0))).isEqualTo(traceId(tp)));
            assertThat(receiver.posts.get()).isEqualTo(postsWhenStopped);
            System.out.printf("TracesIT: OTLP receiver up: 20 tickets in %d ms (%d POSTs); down: 20 tickets in %d ms%n",
                    upMs, postsWhenStopped, downMs);
            assertThat(downMs).isLessThan(Math.max(3 * upMs, 15_000));
        } finally {
            receiver.close();
            System.clearProperty("otel.exporter.otlp.endpoint");
            System.clearProperty("otel.exporter.otlp.protocol");
            System.clearProperty("otel.bsp.schedule.delay");
        }
    }
}
