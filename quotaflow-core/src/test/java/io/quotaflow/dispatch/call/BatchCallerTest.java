package io.quotaflow.dispatch.call;

import io.quotaflow.dispatch.outcome.Outbound;

import io.quotaflow.batch.BatchApi;
import io.quotaflow.batch.BatchApiClient;
import io.quotaflow.batch.BatchJob;
import io.quotaflow.batch.BatchLines;
import io.quotaflow.batch.BatchStatus;
import io.quotaflow.llm.ChatPrompt;
import io.quotaflow.llm.ModelItem;
import io.quotaflow.llm.ModelOutcome;
import io.quotaflow.llm.ModelRequest;
import io.quotaflow.llm.OpenAiChatClient;
import io.quotaflow.records.Json;
import io.quotaflow.settings.BatchApiSettings;
import io.quotaflow.settings.ModelSettings;
import io.quotaflow.settings.Secret;
import io.quotaflow.ticket.BinarySerde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;

/** The batch route's state machine: collect, submit, keep, poll, read back, once (docs/design.md, "Batch routes"). */
class BatchCallerTest {

    private static final ModelSettings MODEL = ModelSettings.of(URI.create("http://localhost:1/v1"), "gpt-4o-mini",
            Secret.of("sk-test-batch-caller"));
    private static final BatchApiSettings SETTINGS = BatchApiSettings.batch().withCollect(Duration.ofMillis(1_000))
            .withPoll(Duration.ofMillis(500)).withMaxEnqueuedTokens(1_000);

    /** A provider whose answers the test sets; every call completes at once. */
    private static final class FakeApi implements BatchApi {
        final List<String> submitted = new ArrayList<>();
        final Map<String, CompletableFuture<BatchApiClient.Info>> statuses = new HashMap<>();
        final Map<String, String> files = new HashMap<>();
        /** The jobs the provider holds, as its list shows them, newest first. */
        final List<BatchApiClient.Info> held = new ArrayList<>();
        final List<String> cancelled = new ArrayList<>();
        int polls;
        int lists;
        CompletableFuture<BatchApiClient.Info> nextSubmit;

        @Override
        public CompletableFuture<BatchApiClient.Info> submit(byte[] jsonl, Map<String, String> metadata) {
            submitted.add(new String(jsonl, StandardCharsets.UTF_8));
            String id = "batch_" + submitted.size();
            held.add(0, new BatchApiClient.Info(id, BatchStatus.VALIDATING, null, null, null, null,
                    metadata.get(BatchApiClient.METADATA_JOB), metadata.get(BatchApiClient.METADATA_SCOPE), -1));
            return nextSubmit != null ? nextSubmit : CompletableFuture.completedFuture(info(id, BatchStatus.VALIDATING, null, null));
        }

        @Override
        public CompletableFuture<BatchApiClient.Info> status(String batchId) {
            polls++;
            return statuses.getOrDefault(batchId, CompletableFuture.completedFuture(info(batchId, BatchStatus.IN_PROGRESS, null, null)));
        }

        @Override
        public CompletableFuture<Void> lines(String fileId, Consumer<BatchLines.Line> each) {
            String content = fileId == null ? "" : files.getOrDefault(fileId, "");
            content.lines().forEach(raw -> BatchLines.line(raw).ifPresent(each));
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public CompletableFuture<List<BatchApiClient.Info>> list(int maxPages) {
            lists++;
            return CompletableFuture.completedFuture(List.copyOf(held));
        }

        @Override
        public CompletableFuture<BatchApiClient.Info> cancel(String batchId) {
            cancelled.add(batchId);
            return CompletableFuture.completedFuture(info(batchId, BatchStatus.CANCELLING, null, null));
        }
    }

    /** What the stream thread was handed. */
    private static final class Recorder implements BatchCaller.Answers {
        final Map<String, ModelOutcome> answered = new LinkedHashMap<>();
        final List<String> unfinished = new ArrayList<>();
        final List<String> requeued = new ArrayList<>();
        int answers;

        @Override
        public void answered(String customId, ModelOutcome outcome, long now) {
            answers++;
            answered.put(customId, outcome);
        }

        @Override
        public void unfinished(String customId, long now) {
            unfinished.add(customId);
        }

        @Override
        public void requeued(String customId, long now) {
            requeued.add(customId);
        }
    }

    private KeyValueStore<String, BatchJob> jobs;
    private FakeApi api;
    private Recorder recorder;

    @BeforeEach
    void setUp() {
        MockProcessorContext<String, Outbound> context = new MockProcessorContext<>();
        jobs = Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore("jobs"), Serdes.String(), new BinarySerde<>(BatchJob.class))
                .withLoggingDisabled().build();
        jobs.init(context.getStateStoreContext(), jobs);
        api = new FakeApi();
        recorder = new Recorder();
    }

    private BatchCaller caller(BatchApiSettings settings) {
        return new BatchCaller("scope-1-batch", "route bulk", settings, api, new BatchLines(new OpenAiChatClient(MODEL)), jobs,
                io.quotaflow.tracing.Tracing.Jobs.NONE);
    }

    private BatchCaller caller(BatchApiSettings settings, io.quotaflow.tracing.Tracing tracing) {
        return new BatchCaller("scope-1-batch", "route bulk", settings, api, new BatchLines(new OpenAiChatClient(MODEL)), jobs,
                tracing.jobs(MODEL));
    }

    private static io.quotaflow.tracing.Tracing tracing(io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter exporter) {
        io.opentelemetry.sdk.OpenTelemetrySdk sdk = io.opentelemetry.sdk.OpenTelemetrySdk.builder()
                .setTracerProvider(io.opentelemetry.sdk.trace.SdkTracerProvider.builder()
                        .addSpanProcessor(io.opentelemetry.sdk.trace.export.SimpleSpanProcessor.create(exporter)).build()).build();
        return new io.quotaflow.tracing.OtelTracing(sdk, false, sdk);
    }

    /** A ticket whose trace started at intake (a traceparent of its own). */
    private static io.quotaflow.ticket.WorkItem traced(io.quotaflow.tracing.Tracing tracing, String id) {
        return tracing.intake(io.quotaflow.dispatch.plan.ViewBuilder.ticket(id, io.quotaflow.records.Priority.STANDARD, 10, 0), 0);
    }

    private static String answerLineWithUsage(String callId, int in, int out) {
        String content = "{\"results\":[{\"id\":\"1\",\"category\":\"billing\",\"urgency\":\"high\"}]}";
        var body = Json.MAPPER.createObjectNode();
        body.set("choices", Json.MAPPER.createArrayNode().add(Json.MAPPER.createObjectNode()
                .put("finish_reason", "stop").set("message", Json.MAPPER.createObjectNode().put("content", content))));
        body.set("usage", Json.MAPPER.createObjectNode().put("prompt_tokens", in).put("completion_tokens", out));
        return "{\"custom_id\":\"" + callId + "\",\"response\":{\"status_code\":200,\"body\":" + body + "},\"error\":null}\n";
    }

    private List<BatchJob> stored() {
        List<BatchJob> all = new ArrayList<>();
        try (var it = jobs.all()) {
            it.forEachRemaining(kv -> all.add(kv.value));
        }
        return all;
    }

    private static BatchApiClient.Info info(String id, BatchStatus status, String output, String errors) {
        return new BatchApiClient.Info(id, status, output, errors, null);
    }

    private static ModelRequest request(String callId, String... keys) {
        List<ModelItem> items = new ArrayList<>();
        List<String> wire = new ArrayList<>();
        for (String k : keys) {
            items.add(new ModelItem(k, "s", "b"));
            wire.add(Integer.toString(wire.size() + 1));
        }
        return new ModelRequest(callId, new ChatPrompt(items, wire, List.of(), Json.MAPPER.createObjectNode().put("model", "gpt-4o-mini"),
                10, 20));
    }

    private static String answerLine(String callId) {
        String content = "{\"results\":[{\"id\":\"1\",\"category\":\"billing\",\"urgency\":\"high\"}]}";
        String body = Json.MAPPER.createObjectNode().set("choices", Json.MAPPER.createArrayNode().add(Json.MAPPER.createObjectNode()
                .put("finish_reason", "stop").set("message", Json.MAPPER.createObjectNode().put("content", content)))).toString();
        return "{\"custom_id\":\"" + callId + "\",\"response\":{\"status_code\":200,\"body\":" + body + "},\"error\":null}\n";
    }

    @Test
    void shouldSubmitTheCollectedCallsAsOneJobOnceTheCollectTimeHasPassed() {
        BatchCaller caller = caller(SETTINGS);
        caller.send(request("c1", "t:a"), List.of(), 100, 0);
        caller.send(request("c2", "t:b"), List.of(), 100, 10);
        caller.tick(500, recorder);
        assertThat(api.submitted).isEmpty();

        caller.tick(1_000, recorder);

        assertThat(api.submitted).hasSize(1);
        assertThat(api.submitted.get(0).lines().toList()).hasSize(2).allSatisfy(l -> assertThat(l).contains("\"url\":\"/v1/chat/completions\""));
        assertThat(api.submitted.get(0)).contains("\"custom_id\":\"c1\"").contains("\"custom_id\":\"c2\"");
        assertThat(stored()).as("its intent is kept before the upload").singleElement()
                .satisfies(j -> assertThat(j.isAccepted()).isFalse());
        caller.tick(1_050, recorder);
        assertThat(stored()).singleElement().satisfies(j -> {
            assertThat(j.batchId()).isEqualTo("batch_1");
            assertThat(j.calls()).extracting(BatchJob.Call::customId).containsExactly("c1", "c2");
        });
    }

    @Test
    void shouldAnswerEachCallOnceWhenTheJobCompletesAndForgetTheJob() {
        BatchCaller caller = submittedTwoCalls();
        api.statuses.put("batch_1", CompletableFuture.completedFuture(info("batch_1", BatchStatus.COMPLETED, "file-out", "file-err")));
        api.files.put("file-out", answerLine("c1"));
        api.files.put("file-err", "{\"custom_id\":\"c2\",\"response\":{\"status_code\":500,\"body\":{\"error\":{\"message\":\"boom\"}}},"
                + "\"error\":null}\n");

        caller.tick(1_600, recorder); // polled: completed, files read
        caller.tick(1_650, recorder); // applied
        caller.tick(5_000, recorder);

        assertThat(recorder.answers).isEqualTo(2);
        assertThat(recorder.answered.get("c1")).isInstanceOfSatisfying(ModelOutcome.Answered.class,
                a -> assertThat(a.labels()).containsEntry("t:a", new ModelOutcome.Label("billing", "high")));
        assertThat(recorder.answered.get("c2")).isInstanceOfSatisfying(ModelOutcome.Failed.class,
                f -> assertThat(f.kind()).isEqualTo(ModelOutcome.FailureKind.TRANSIENT));
        assertThat(stored()).isEmpty();
        assertThat(caller.liveJobs()).isZero();
        assertThat(caller.enqueuedTokens()).isZero();
    }

    @Test
    void shouldPollAStoredJobAfterARestartAndKeepItsCallsOut() {
        BatchCaller first = caller(SETTINGS);
        first.send(request("c1", "t:a"), List.of(), 100, 0);
        first.tick(1_000, recorder);
        first.tick(1_001, recorder);
        first.close();

        BatchCaller second = caller(SETTINGS);
        assertThat(second.restore(2_000)).containsExactly("c1");
        assertThat(second.enqueuedTokens()).isEqualTo(100);
        api.statuses.put("batch_1", CompletableFuture.completedFuture(info("batch_1", BatchStatus.COMPLETED, "file-out", null)));
        api.files.put("file-out", answerLine("c1"));
        second.tick(2_000, recorder);
        second.tick(2_001, recorder);

        assertThat(api.submitted).as("the job is not submitted again").hasSize(1);
        assertThat(recorder.answered).containsOnlyKeys("c1");
        assertThat(stored()).isEmpty();
    }

    @Test
    void shouldHandTheCallsAnExpiredJobDidNotGetToBackAsUnfinished() {
        BatchCaller caller = submittedTwoCalls();
        api.statuses.put("batch_1", CompletableFuture.completedFuture(info("batch_1", BatchStatus.EXPIRED, "file-out", "file-err")));
        api.files.put("file-out", answerLine("c1"));
        api.files.put("file-err", "{\"custom_id\":\"c2\",\"response\":null,\"error\":{\"code\":\"batch_expired\",\"message\":\"late\"}}\n");

        caller.tick(1_600, recorder);
        caller.tick(1_650, recorder);

        assertThat(recorder.answered).containsOnlyKeys("c1");
        assertThat(recorder.unfinished).containsExactly("c2");
        assertThat(stored()).isEmpty();
    }

    @Test
    void shouldTraceAJobAsOneSpanFromItsSubmissionToItsEndLinkedToEveryTicketWithTheUsageOfItsLines() {
        var exporter = io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter.create();
        io.quotaflow.tracing.Tracing tracing = tracing(exporter);
        BatchCaller caller = caller(SETTINGS, tracing);
        var a = traced(tracing, "t:a");
        var b = traced(tracing, "t:b");
        var c = traced(tracing, "t:c");
        caller.send(request("c1", "t:a", "t:b"), List.of(a, b), 100, 0);
        caller.send(request("c2", "t:c"), List.of(c), 100, 10);
        caller.tick(1_000, recorder);
        caller.tick(1_001, recorder);
        assertThat(exporter.getFinishedSpanItems()).noneMatch(s -> s.getName().startsWith("batch "));
        api.statuses.put("batch_1", CompletableFuture.completedFuture(info("batch_1", BatchStatus.COMPLETED, "file-out", null)));
        api.files.put("file-out", answerLineWithUsage("c1", 30, 7) + answerLineWithUsage("c2", 12, 3));

        caller.tick(1_600, recorder);
        caller.tick(1_650, recorder);

        assertThat(recorder.answered).containsOnlyKeys("c1", "c2");
        var job = exporter.getFinishedSpanItems().stream().filter(s -> s.getName().equals("batch gpt-4o-mini")).toList();
        assertThat(job).singleElement().satisfies(s -> {
            assertThat(s.getKind()).isEqualTo(io.opentelemetry.api.trace.SpanKind.CLIENT);
            assertThat(s.getStartEpochNanos()).isEqualTo(1_000_000_000L);
            assertThat(s.getEndEpochNanos()).isEqualTo(1_650_000_000L);
            assertThat(s.getLinks()).extracting(l -> l.getSpanContext().getTraceId()).containsExactlyInAnyOrder(
                    traceOf(a), traceOf(b), traceOf(c));
            assertThat(s.getTraceId()).isEqualTo(traceOf(a));
            var attrs = s.getAttributes();
            assertThat(attrs.get(io.opentelemetry.api.common.AttributeKey.stringKey("gen_ai.request.model"))).isEqualTo("gpt-4o-mini");
            assertThat(attrs.get(io.opentelemetry.api.common.AttributeKey.stringKey("gen_ai.provider.name"))).isNotBlank();
            assertThat(attrs.get(io.opentelemetry.api.common.AttributeKey.longKey("gen_ai.usage.input_tokens"))).isEqualTo(42L);
            assertThat(attrs.get(io.opentelemetry.api.common.AttributeKey.longKey("gen_ai.usage.output_tokens"))).isEqualTo(10L);
            assertThat(attrs.get(io.opentelemetry.api.common.AttributeKey.stringKey("quotaflow.batch.job"))).isEqualTo("batch_1");
            assertThat(attrs.get(io.opentelemetry.api.common.AttributeKey.stringKey("quotaflow.batch.status"))).isEqualTo("completed");
            assertThat(s.getStatus().getStatusCode()).isNotEqualTo(io.opentelemetry.api.trace.StatusCode.ERROR);
        });
        assertThat(exporter.getFinishedSpanItems().stream().filter(s -> s.getName().equals("quotaflow wait")).count())
                .as("each ticket's wait ends when its call joins the job").isEqualTo(3);
    }

    @Test
    void shouldEndTheSpanOfAnExpiredOrFailedJobWithAnErrorStatus() {
        var exporter = io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter.create();
        io.quotaflow.tracing.Tracing tracing = tracing(exporter);
        BatchCaller caller = caller(SETTINGS, tracing);
        caller.send(request("c1", "t:a"), List.of(traced(tracing, "t:a")), 100, 0);
        caller.tick(1_000, recorder);
        caller.tick(1_001, recorder);
        api.statuses.put("batch_1", CompletableFuture.completedFuture(info("batch_1", BatchStatus.EXPIRED, null, null)));
        caller.tick(1_600, recorder);
        caller.tick(1_650, recorder);

        caller.send(request("c2", "t:b"), List.of(traced(tracing, "t:b")), 100, 2_000);
        caller.tick(3_000, recorder);
        caller.tick(3_001, recorder);
        api.statuses.put("batch_2", CompletableFuture.completedFuture(new BatchApiClient.Info("batch_2", BatchStatus.FAILED, null, null,
                "line 1: invalid model")));
        caller.tick(3_600, recorder);
        caller.tick(3_601, recorder);

        var jobs = exporter.getFinishedSpanItems().stream().filter(s -> s.getName().startsWith("batch ")).toList();
        assertThat(jobs).hasSize(2).allSatisfy(s -> {
            assertThat(s.getStatus().getStatusCode()).isEqualTo(io.opentelemetry.api.trace.StatusCode.ERROR);
            assertThat(s.getLinks()).hasSize(1);
        });
        assertThat(jobs).extracting(s -> s.getAttributes().get(io.opentelemetry.api.common.AttributeKey.stringKey("error.type")))
                .containsExactly("expired", "failed");
    }

    private static String traceOf(io.quotaflow.ticket.WorkItem item) {
        return item.headers().stream().filter(h -> h.key().equals("traceparent")).map(h -> new String(h.value(), StandardCharsets.US_ASCII))
                .findFirst().orElseThrow().substring(3, 35);
    }

    @Test
    void shouldFailEveryCallOfAFailedJobOrARefusedSubmission() {
        BatchCaller caller = caller(SETTINGS);
        api.nextSubmit = CompletableFuture.failedFuture(new RuntimeException("refused"));
        caller.send(request("c1", "t:a"), List.of(), 100, 0);
        caller.tick(1_000, recorder);
        caller.tick(1_001, recorder);
        assertThat(recorder.answered.get("c1")).isInstanceOfSatisfying(ModelOutcome.Failed.class,
                f -> assertThat(f.kind()).isEqualTo(ModelOutcome.FailureKind.TRANSIENT));
        assertThat(caller.enqueuedTokens()).isZero();

        api.nextSubmit = null;
        caller.send(request("c2", "t:b"), List.of(), 100, 2_000);
        caller.tick(3_000, recorder);
        caller.tick(3_001, recorder);
        api.statuses.put("batch_2", CompletableFuture.completedFuture(new BatchApiClient.Info("batch_2", BatchStatus.FAILED, null, null,
                "line 1: invalid model")));
        caller.tick(3_600, recorder);
        caller.tick(3_601, recorder);
        assertThat(recorder.answered.get("c2")).isInstanceOfSatisfying(ModelOutcome.Failed.class,
                f -> assertThat(f.message()).contains("invalid model"));
        assertThat(stored()).isEmpty();
    }

    @Test
    void shouldRespectTheEnqueuedTokenLimitTheRequestsPerJobAndTheFileSize() {
        BatchCaller caller = caller(SETTINGS.withMaxRequests(2));
        assertThat(caller.room(5_000)).as("one call alone always goes").isTrue();
        caller.send(request("c1", "t:a"), List.of(), 400, 0);
        caller.send(request("c2", "t:b"), List.of(), 400, 0);
        assertThat(caller.room(300)).as("800 + 300 > 1000 enqueued").isFalse();
        assertThat(caller.room(200)).isTrue();
        caller.send(request("c3", "t:c"), List.of(), 200, 0);
        assertThat(api.submitted).as("the third call starts a new job").hasSize(1);
        assertThat(api.submitted.get(0).lines().count()).isEqualTo(2);

        BatchCaller small = caller(SETTINGS.withMaxFileBytes(1_024).withMaxEnqueuedTokens(1_000_000));
        int lineBytes = BatchLines.requestLine("d0", request("d0", "t:x").prompt().body()).length;
        int perFile = 1_024 / lineBytes;
        for (int i = 0; i <= perFile; i++) {
            small.send(request("d" + i, "t:x" + i), List.of(), 1, 0);
        }
        assertThat(api.submitted).hasSize(2);
        assertThat(api.submitted.get(1).getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(1_024);
    }

    @Test
    void shouldAskForAJobsStatusEveryPollInterval() {
        BatchCaller caller = caller(SETTINGS);
        caller.send(request("c1", "t:a"), List.of(), 100, 0);
        caller.tick(1_000, recorder);
        caller.tick(1_001, recorder);
        int polls = api.polls;
        caller.tick(1_200, recorder);
        assertThat(api.polls).isEqualTo(polls);
        caller.tick(1_501, recorder);
        caller.tick(1_502, recorder);
        assertThat(api.polls).isEqualTo(polls + 1);
        caller.tick(2_100, recorder);
        assertThat(api.polls).isEqualTo(polls + 2);
        assertThat(recorder.answers).isZero();
    }

    private static final long HOUR = 3_600_000L;

    /** Submits {@code c1} and {@code c2} (100 tokens each) at 0 and has the provider accept them as batch_1. */
    private BatchCaller submitted(BatchApiSettings settings) {
        BatchCaller caller = caller(settings);
        caller.send(request("c1", "t:a"), List.of(), 100, 0);
        caller.send(request("c2", "t:b"), List.of(), 100, 0);
        caller.tick(1_000, recorder);
        caller.tick(1_001, recorder);
        return caller;
    }

    @Test
    void shouldEndAJobWhoseStatusReturns404ForeverAsExpiredAfterItsWindowAndGrace() {
        BatchCaller caller = submitted(SETTINGS.withExpiryGrace(Duration.ofHours(1)));
        api.statuses.put("batch_1", CompletableFuture.failedFuture(new BatchApiClient.Refused(404,
                "{\"error\":{\"message\":\"No batch found with id 'batch_1'.\"}}")));
        long deadline = 1_000 + 25 * HOUR;
        for (long t = 2_000; t < deadline; t += HOUR / 2) {
            caller.tick(t, recorder);
            caller.tick(t + 1, recorder);
        }
        assertThat(recorder.answers + recorder.unfinished.size()).as("not ended within the window and grace").isZero();
        assertThat(caller.enqueuedTokens()).isEqualTo(200);
        assertThat(caller.room(900)).as("its tokens hold the enqueued room meanwhile").isFalse();

        caller.tick(deadline, recorder);

        assertThat(recorder.unfinished).as("its tickets go on, to the fallback or back to wait").containsExactly("c1", "c2");
        assertThat(recorder.answers).isZero();
        assertThat(caller.enqueuedTokens()).as("its tokens leave the count").isZero();
        assertThat(caller.room(900)).isTrue();
        assertThat(caller.liveJobs()).isZero();
        assertThat(stored()).isEmpty();
        assertThat(api.cancelled).as("cancelled at the provider, in case it still runs").containsExactly("batch_1");
        int polls = api.polls;
        caller.tick(deadline + HOUR, recorder);
        assertThat(api.polls).as("not polled any more").isEqualTo(polls);
    }

    @Test
    void shouldTakeAnUnknownStatusAsNotFinishedOnlyWithinTheWindow() {
        BatchCaller caller = submitted(SETTINGS.withExpiryGrace(Duration.ZERO));
        api.statuses.put("batch_1", CompletableFuture.completedFuture(info("batch_1", BatchStatus.of("paused"), null, null)));
        caller.tick(2_000, recorder);
        caller.tick(2_001, recorder);
        caller.tick(1_000 + 24 * HOUR - 1, recorder);
        assertThat(recorder.unfinished).isEmpty();
        assertThat(caller.liveJobs()).isEqualTo(1);

        caller.tick(1_000 + 24 * HOUR + 1, recorder);
        caller.tick(1_000 + 24 * HOUR + 2, recorder);

        assertThat(recorder.unfinished).containsExactly("c1", "c2");
        assertThat(caller.enqueuedTokens()).isZero();
    }

    @Test
    void shouldAdoptAJobOrphanedBetweenUploadAndStoreWhenTheNextOwnerFindsItByItsKey() {
        BatchCaller first = caller(SETTINGS);
        api.nextSubmit = new CompletableFuture<>(); // the provider accepts the job; its answer never reaches this owner
        first.send(request("c1", "t:a"), List.of(), 100, 0);
        first.send(request("c2", "t:b"), List.of(), 100, 0);
        first.tick(1_000, recorder);
        first.close();
        String key = stored().get(0).key();
        assertThat(api.held).singleElement().satisfies(j -> assertThat(j.jobKey()).isEqualTo(key));
        assertThat(api.held.get(0).jobScope()).isEqualTo("scope-1-batch");

        api.nextSubmit = null;
        BatchCaller second = caller(SETTINGS);
        assertThat(second.restore(5_000)).as("its calls stay out for the intent").containsExactlyInAnyOrder("c1", "c2");
        second.tick(5_000, recorder); // lists the provider's jobs
        second.tick(5_001, recorder); // adopts batch_1 and polls it
        assertThat(stored()).singleElement().satisfies(j -> assertThat(j.batchId()).isEqualTo("batch_1"));
        api.statuses.put("batch_1", CompletableFuture.completedFuture(info("batch_1", BatchStatus.COMPLETED, "file-out", null)));
        api.files.put("file-out", answerLine("c1") + answerLine("c2"));
        second.tick(6_000, recorder); // the poll of 5,001 applied: next at 6,500
        second.tick(6_500, recorder); // polled: completed, files read
        second.tick(6_501, recorder); // applied

        assertThat(api.submitted).as("not submitted twice").hasSize(1);
        assertThat(api.cancelled).isEmpty();
        assertThat(recorder.answered).containsOnlyKeys("c1", "c2");
        assertThat(recorder.answers).isEqualTo(2);
        assertThat(recorder.requeued).isEmpty();
        assertThat(stored()).isEmpty();
    }

    @Test
    void shouldCancelAJobWhoseKeyNoStoredJobHoldsAndAskAgainTheCallsOfAnIntentTheProviderNeverAccepted() {
        // the provider holds a running job of this route under a key no stored job has (the intent was not committed)
        api.held.add(new BatchApiClient.Info("batch_lost", BatchStatus.IN_PROGRESS, null, null, null, null, "key-lost",
                "scope-1-batch", -1));
        api.held.add(new BatchApiClient.Info("batch_other", BatchStatus.IN_PROGRESS, null, null, null, null, "key-x",
                "another-scope", -1));
        // an intent stored whose upload never reached the provider
        BatchJob.Call call = new BatchJob.Call("c9", List.of("t:z"), List.of("1"), 100);
        jobs.put("key-never", BatchJob.intent("key-never", "scope-1-batch", 0, List.of(call)));
        BatchCaller caller = caller(SETTINGS);
        assertThat(caller.restore(1_000)).containsExactly("c9");
        assertThat(caller.enqueuedTokens()).isEqualTo(100);

        caller.tick(1_000, recorder);
        caller.tick(1_001, recorder);

        assertThat(api.cancelled).as("only this route's job, not another scope's").containsExactly("batch_lost");
        assertThat(recorder.requeued).containsExactly("c9");
        assertThat(recorder.answers + recorder.unfinished.size()).isZero();
        assertThat(caller.enqueuedTokens()).isZero();
        assertThat(stored()).isEmpty();
    }

    @Test
    void shouldKeepEachJobRecordUnderTheRecordLimitBySplittingTheJobAndLoseNoCall() {
        BatchCaller caller = caller(SETTINGS.withMaxEnqueuedTokens(Long.MAX_VALUE / 4).withMaxFileBytes(Long.MAX_VALUE / 4));
        String pad = "x".repeat(180);
        int calls = 600;
        for (int i = 0; i < calls; i++) {
            String[] keys = new String[10];
            for (int k = 0; k < keys.length; k++) {
                keys[k] = "tenant-" + k + ":" + pad + "-" + i + "-" + k;
            }
            caller.send(request("call-" + i, keys), List.of(), 1_000, 0);
        }
        caller.tick(1_000, recorder);
        caller.tick(1_001, recorder);

        BinarySerde<BatchJob> serde = new BinarySerde<>(BatchJob.class);
        List<BatchJob> all = stored();
        long unsplit = serde.serializer().serialize("t", new BatchJob("batch_x", "scope-1-batch", null, 0,
                all.stream().flatMap(j -> j.calls().stream()).toList(), "k")).length;
        assertThat(unsplit).as("one job of them all would pass the 1 MiB record limit").isGreaterThan(1024 * 1024);
        assertThat(all).hasSizeGreaterThan(1);
        assertThat(all).allSatisfy(j -> {
            assertThat(j.isAccepted()).isTrue();
            assertThat((long) serde.serializer().serialize("t", j).length).isLessThan(1024 * 1024)
                    .isLessThanOrEqualTo(j.recordBytes());
        });
        assertThat(all.stream().mapToInt(j -> j.calls().size()).sum()).as("nothing lost").isEqualTo(calls);
        assertThat(api.submitted).hasSize(all.size());
        assertThat(caller.enqueuedTokens()).isEqualTo(calls * 1_000L);
    }

    @Test
    void shouldLearnTheEnqueuedLimitFromTokenLimitExceededAndWaitWithoutFailingOrFallingBack() {
        BatchCaller caller = caller(SETTINGS.withMaxEnqueuedTokens(1_000_000));
        for (int i = 0; i < 10; i++) {
            caller.send(request("c" + i, "t:" + i), List.of(), 1_000, 0);
        }
        caller.tick(1_000, recorder);
        caller.tick(1_001, recorder);
        api.statuses.put("batch_1", CompletableFuture.completedFuture(new BatchApiClient.Info("batch_1", BatchStatus.FAILED, null, null,
                "Enqueued token limit reached for gpt-4o-mini in organization org-test. Limit: 3,000 enqueued tokens. Please try "
                        + "again once some in_progress batches have been completed.", "token_limit_exceeded", null, null, -1)));
        caller.tick(1_600, recorder);
        caller.tick(1_601, recorder);

        assertThat(recorder.requeued).as("every call waits again").hasSize(10);
        assertThat(recorder.answers).as("no failure: no attempt spent, no circuit opened").isZero();
        assertThat(recorder.unfinished).as("no fallback online").isEmpty();
        assertThat(caller.enqueuedTokens()).isZero();
        assertThat(caller.enqueuedLimit()).as("3,000 less the margin").isEqualTo(2_700);

        // smaller jobs as room frees: two calls fit, a third does not
        assertThat(caller.room(1_000)).isTrue();
        caller.send(request("d1", "t:1"), List.of(), 1_000, 2_000);
        assertThat(caller.room(1_000)).isTrue();
        caller.send(request("d2", "t:2"), List.of(), 1_000, 2_000);
        assertThat(caller.room(1_000)).isFalse();
        caller.tick(3_000, recorder);
        caller.tick(3_001, recorder);
        assertThat(api.submitted).hasSize(2);
        assertThat(api.submitted.get(1).lines().count()).isEqualTo(2);

        // the provider counts 40 % more than we do: its usage calibrates the limit
        api.statuses.put("batch_2", CompletableFuture.completedFuture(new BatchApiClient.Info("batch_2", BatchStatus.COMPLETED,
                "file-out", null, null, null, null, null, 2_800)));
        api.files.put("file-out", answerLine("d1") + answerLine("d2"));
        caller.tick(3_600, recorder);
        caller.tick(3_601, recorder);
        assertThat(recorder.answered).containsOnlyKeys("d1", "d2");
        assertThat(caller.enqueuedLimit()).isEqualTo((long) (3_000 * 0.9 / 1.4));
    }

    @Test
    void shouldRequeueTheCallsOfASubmissionRefusedForTheEnqueuedLimitAndFailALoneCallThatCannotFit() {
        BatchCaller caller = caller(SETTINGS.withMaxEnqueuedTokens(1_000_000));
        api.nextSubmit = CompletableFuture.failedFuture(new BatchApiClient.Refused(429, "{\"error\":{\"code\":\"token_limit_exceeded\","
                + "\"message\":\"The number of enqueued tokens has surpassed the configured limit of 1K for the deployment.\"}}"));
        caller.send(request("c1", "t:a"), List.of(), 700, 0);
        caller.send(request("c2", "t:b"), List.of(), 700, 0);
        caller.tick(1_000, recorder);
        caller.tick(1_001, recorder);
        assertThat(recorder.requeued).containsExactly("c1", "c2");
        assertThat(recorder.answers).isZero();
        assertThat(caller.enqueuedLimit()).isEqualTo(900);

        caller.send(request("c3", "t:c"), List.of(), 2_000, 2_000);
        caller.tick(3_000, recorder);
        caller.tick(3_001, recorder);
        assertThat(recorder.answered.get("c3")).as("alone and still refused: the failure table decides")
                .isInstanceOfSatisfying(ModelOutcome.Failed.class, f -> assertThat(f.message()).contains("enqueued-token limit"));
    }

    @Test
    void shouldCountAJobThatFailedAsAWholeAsOneFailureAndLetTheOtherCallsWait() {
        BatchCaller caller = submitted(SETTINGS);
        api.statuses.put("batch_1", CompletableFuture.completedFuture(new BatchApiClient.Info("batch_1", BatchStatus.FAILED, null, null,
                "The batch failed: an internal error.", "server_error", null, null, -1)));
        caller.tick(1_600, recorder);
        caller.tick(1_601, recorder);

        assertThat(recorder.answered).containsOnlyKeys("c1");
        assertThat(recorder.answered.get("c1")).isInstanceOfSatisfying(ModelOutcome.Failed.class,
                f -> assertThat(f.message()).contains("internal error"));
        assertThat(recorder.requeued).containsExactly("c2");
        assertThat(caller.enqueuedTokens()).isZero();
        assertThat(stored()).isEmpty();
    }

    @Test
    void shouldNeverListOrCancelInACallerThatHoldsNoJobOfItsScope() {
        api.held.add(new BatchApiClient.Info("batch_owned_elsewhere", BatchStatus.IN_PROGRESS, null, null, null, null, "key-y",
                "scope-1-batch", -1));
        BatchCaller idle = caller(SETTINGS);
        assertThat(idle.restore(0)).isEmpty();
        for (long t = 0; t < 60_000; t += 500) {
            idle.tick(t, recorder);
        }
        assertThat(api.lists).isZero();
        assertThat(api.cancelled).isEmpty();
    }

    /** A caller of {@code SETTINGS} whose two calls, c1 and c2, went out as job batch_1 (its upload, then its creation). */
    private BatchCaller submittedTwoCalls() {
        BatchCaller caller = caller(SETTINGS);
        caller.send(request("c1", "t:a"), List.of(), 100, 0);
        caller.send(request("c2", "t:b"), List.of(), 100, 0);
        caller.tick(1_000, recorder);
        caller.tick(1_001, recorder);
        return caller;
    }
}
