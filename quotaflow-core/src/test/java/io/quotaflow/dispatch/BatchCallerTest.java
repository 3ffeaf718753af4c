package io.quotaflow.dispatch;

import io.quotaflow.batch.BatchApi;
import io.quotaflow.batch.BatchApiClient;
import io.quotaflow.batch.BatchJob;
import io.quotaflow.batch.BatchLines;
import io.quotaflow.batch.BatchStatus;
import io.quotaflow.model.ChatPrompt;
import io.quotaflow.model.ModelItem;
import io.quotaflow.model.ModelOutcome;
import io.quotaflow.model.ModelRequest;
import io.quotaflow.model.OpenAiChatClient;
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
        int polls;
        CompletableFuture<BatchApiClient.Info> nextSubmit;

        @Override
        public CompletableFuture<BatchApiClient.Info> submit(byte[] jsonl) {
            submitted.add(new String(jsonl, StandardCharsets.UTF_8));
            return nextSubmit != null ? nextSubmit : CompletableFuture.completedFuture(info("batch_" + submitted.size(),
                    BatchStatus.VALIDATING, null, null));
        }

        @Override
        public CompletableFuture<BatchApiClient.Info> status(String batchId) {
            polls++;
            return statuses.getOrDefault(batchId, CompletableFuture.completedFuture(info(batchId, BatchStatus.IN_PROGRESS, null, null)));
        }

        @Override
        public CompletableFuture<String> content(String fileId) {
            return CompletableFuture.completedFuture(fileId == null ? "" : files.getOrDefault(fileId, ""));
        }
    }

    /** What the stream thread was handed. */
    private static final class Recorder implements BatchCaller.Answers {
        final Map<String, ModelOutcome> answered = new LinkedHashMap<>();
        final List<String> unfinished = new ArrayList<>();
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
        return new BatchCaller("scope-1-batch", "route bulk", settings, api, new BatchLines(new OpenAiChatClient(MODEL)), jobs);
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
        caller.send(request("c1", "t:a"), 100, 0);
        caller.send(request("c2", "t:b"), 100, 10);
        caller.tick(500, recorder);
        assertThat(api.submitted).isEmpty();

        caller.tick(1_000, recorder);

        assertThat(api.submitted).hasSize(1);
        assertThat(api.submitted.get(0).lines().toList()).hasSize(2).allSatisfy(l -> assertThat(l).contains("\"url\":\"/v1/chat/completions\""));
        assertThat(api.submitted.get(0)).contains("\"custom_id\":\"c1\"").contains("\"custom_id\":\"c2\"");
        assertThat(jobs.approximateNumEntries()).as("kept once the provider accepts it").isZero();
        caller.tick(1_050, recorder);
        assertThat(jobs.get("batch_1").calls()).extracting(BatchJob.Call::customId).containsExactly("c1", "c2");
    }

    @Test
    void shouldAnswerEachCallOnceWhenTheJobCompletesAndForgetTheJob() {
        BatchCaller caller = caller(SETTINGS);
        caller.send(request("c1", "t:a"), 100, 0);
        caller.send(request("c2", "t:b"), 100, 0);
        caller.tick(1_000, recorder);
        caller.tick(1_001, recorder);
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
        assertThat(jobs.get("batch_1")).isNull();
        assertThat(caller.liveJobs()).isZero();
        assertThat(caller.enqueuedTokens()).isZero();
    }

    @Test
    void shouldPollAStoredJobAfterARestartAndKeepItsCallsOut() {
        BatchCaller first = caller(SETTINGS);
        first.send(request("c1", "t:a"), 100, 0);
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
        assertThat(jobs.get("batch_1")).isNull();
    }

    @Test
    void shouldHandTheCallsAnExpiredJobDidNotGetToBackAsUnfinished() {
        BatchCaller caller = caller(SETTINGS);
        caller.send(request("c1", "t:a"), 100, 0);
        caller.send(request("c2", "t:b"), 100, 0);
        caller.tick(1_000, recorder);
        caller.tick(1_001, recorder);
        api.statuses.put("batch_1", CompletableFuture.completedFuture(info("batch_1", BatchStatus.EXPIRED, "file-out", "file-err")));
        api.files.put("file-out", answerLine("c1"));
        api.files.put("file-err", "{\"custom_id\":\"c2\",\"response\":null,\"error\":{\"code\":\"batch_expired\",\"message\":\"late\"}}\n");

        caller.tick(1_600, recorder);
        caller.tick(1_650, recorder);

        assertThat(recorder.answered).containsOnlyKeys("c1");
        assertThat(recorder.unfinished).containsExactly("c2");
        assertThat(jobs.get("batch_1")).isNull();
    }

    @Test
    void shouldFailEveryCallOfAFailedJobOrARefusedSubmission() {
        BatchCaller caller = caller(SETTINGS);
        api.nextSubmit = CompletableFuture.failedFuture(new RuntimeException("refused"));
        caller.send(request("c1", "t:a"), 100, 0);
        caller.tick(1_000, recorder);
        caller.tick(1_001, recorder);
        assertThat(recorder.answered.get("c1")).isInstanceOfSatisfying(ModelOutcome.Failed.class,
                f -> assertThat(f.kind()).isEqualTo(ModelOutcome.FailureKind.TRANSIENT));
        assertThat(caller.enqueuedTokens()).isZero();

        api.nextSubmit = null;
        caller.send(request("c2", "t:b"), 100, 2_000);
        caller.tick(3_000, recorder);
        caller.tick(3_001, recorder);
        api.statuses.put("batch_2", CompletableFuture.completedFuture(new BatchApiClient.Info("batch_2", BatchStatus.FAILED, null, null,
                "line 1: invalid model")));
        caller.tick(3_600, recorder);
        caller.tick(3_601, recorder);
        assertThat(recorder.answered.get("c2")).isInstanceOfSatisfying(ModelOutcome.Failed.class,
                f -> assertThat(f.message()).contains("invalid model"));
        assertThat(jobs.get("batch_2")).isNull();
    }

    @Test
    void shouldRespectTheEnqueuedTokenLimitTheRequestsPerJobAndTheFileSize() {
        BatchCaller caller = caller(SETTINGS.withMaxRequests(2));
        assertThat(caller.room(5_000)).as("one call alone always goes").isTrue();
        caller.send(request("c1", "t:a"), 400, 0);
        caller.send(request("c2", "t:b"), 400, 0);
        assertThat(caller.room(300)).as("800 + 300 > 1000 enqueued").isFalse();
        assertThat(caller.room(200)).isTrue();
        caller.send(request("c3", "t:c"), 200, 0);
        assertThat(api.submitted).as("the third call starts a new job").hasSize(1);
        assertThat(api.submitted.get(0).lines().count()).isEqualTo(2);

        BatchCaller small = caller(SETTINGS.withMaxFileBytes(1_024).withMaxEnqueuedTokens(1_000_000));
        int lineBytes = BatchLines.requestLine("d0", request("d0", "t:x").prompt().body()).length;
        int perFile = 1_024 / lineBytes;
        for (int i = 0; i <= perFile; i++) {
            small.send(request("d" + i, "t:x" + i), 1, 0);
        }
        assertThat(api.submitted).hasSize(2);
        assertThat(api.submitted.get(1).getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(1_024);
    }

    @Test
    void shouldAskForAJobsStatusEveryPollInterval() {
        BatchCaller caller = caller(SETTINGS);
        caller.send(request("c1", "t:a"), 100, 0);
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
}
