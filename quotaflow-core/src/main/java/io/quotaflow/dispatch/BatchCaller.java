package io.quotaflow.dispatch;

import io.quotaflow.batch.BatchApi;
import io.quotaflow.batch.BatchApiClient;
import io.quotaflow.batch.BatchJob;
import io.quotaflow.batch.BatchLines;
import io.quotaflow.batch.BatchStatus;
import io.quotaflow.model.ModelItem;
import io.quotaflow.model.ModelOutcome;
import io.quotaflow.model.ModelRequest;
import io.quotaflow.model.TransportCause;
import io.quotaflow.quota.RateLimitInfo;
import io.quotaflow.settings.BatchApiSettings;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The calls of a batch route (docs/design.md, "Batch routes"): in place of the {@link CallSender}, it
 * collects them into a batch job, submits the job (upload and create, off the stream thread), polls it
 * from the punctuator, downloads its output and error files when it ends, and hands each call's outcome
 * to the stream thread. A job the provider accepted is kept in the changelogged {@code qf-batch-jobs}
 * store (its id, its calls, their tickets) until every call of it is answered, in the same step as the
 * results it leads to: a restart, or the scope's next owner, polls the same job and no result is written
 * twice. Calls not yet in an accepted job are forgotten on restart and their tickets asked again, as an
 * online call's are.
 *
 * <p>Limits: at most {@code batch.max-requests} calls and {@code batch.max-file-bytes} bytes a job, and
 * {@code batch.max-enqueued-tokens} over the route's unfinished jobs ({@link #room}).
 */
final class BatchCaller {

    private static final Logger LOG = LoggerFactory.getLogger(BatchCaller.class);

    /** Where the outcomes go, on the stream thread. */
    interface Answers {

        /** Call {@code customId} came to {@code outcome}. */
        void answered(String customId, ModelOutcome outcome, long now);

        /** The job ended ({@code expired}, {@code cancelled}) before it got to call {@code customId}. */
        void unfinished(String customId, long now);
    }

    /** What an HTTP thread reports, applied on the stream thread. */
    private sealed interface Event {
    }

    private record Submitted(Forming job, BatchApiClient.Info info) implements Event {
    }

    private record SubmitFailed(Forming job, ModelOutcome outcome) implements Event {
    }

    private record Polled(String batchId, BatchApiClient.Info info) implements Event {
    }

    private record Downloaded(String batchId, BatchStatus status, Map<String, BatchLines.Line> lines) implements Event {
    }

    private record Missed(String batchId, String what) implements Event {
    }

    /** A job being collected, or on its way to the provider. */
    private static final class Forming {
        final long startedAt;
        final List<BatchJob.Call> calls = new ArrayList<>();
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        long tokens;

        Forming(long startedAt) {
            this.startedAt = startedAt;
        }
    }

    /** A job the provider accepted. */
    private static final class Live {
        final BatchJob job;
        long nextPoll;
        boolean busy;
        BatchStatus status = BatchStatus.VALIDATING;

        Live(BatchJob job, long nextPoll) {
            this.job = job;
            this.nextPoll = nextPoll;
        }
    }

    private final String scope;
    private final String who;
    private final BatchApiSettings settings;
    private final BatchApi client;
    private final BatchLines lines;
    private final KeyValueStore<String, BatchJob> jobs;
    private final Queue<Event> events = new ConcurrentLinkedQueue<>();
    private final Map<String, Live> live = new LinkedHashMap<>();
    private Forming forming;
    /** Tokens of the calls collected, on their way, or in jobs not finished. */
    private long enqueued;
    private volatile boolean closed;

    BatchCaller(String scope, String who, BatchApiSettings settings, BatchApi client, BatchLines lines,
                KeyValueStore<String, BatchJob> jobs) {
        this.scope = scope;
        this.who = who;
        this.settings = settings;
        this.client = client;
        this.lines = lines;
        this.jobs = jobs;
    }

    /** Takes this scope's accepted jobs back from the store; returns the ids of their calls (still out). */
    Set<String> restore(long now) {
        Set<String> calls = new HashSet<>();
        try (KeyValueIterator<String, BatchJob> it = jobs.all()) {
            it.forEachRemaining(kv -> {
                if (scope.equals(kv.value.scope())) {
                    live.put(kv.key, new Live(kv.value, now));
                    enqueued += kv.value.tokens();
                    kv.value.calls().forEach(c -> calls.add(c.customId()));
                }
            });
        }
        if (!live.isEmpty()) {
            LOG.info("{}: {} batch jobs of {} calls resumed; polling them", who, live.size(), calls.size());
        }
        return calls;
    }

    /** Whether a call of {@code tokens} fits the enqueued-token limit now (one alone always does). */
    boolean room(long tokens) {
        return enqueued == 0 || enqueued + tokens <= settings.maxEnqueuedTokens();
    }

    /** Collects {@code request}, counted at {@code tokens}, into the job being formed. */
    void send(ModelRequest request, long tokens, long now) {
        byte[] line = BatchLines.requestLine(request.batchId(), request.prompt().body());
        if (forming != null && (forming.calls.size() >= settings.maxRequests()
                || forming.bytes.size() + (long) line.length > settings.maxFileBytes())) {
            submit(forming);
            forming = null;
        }
        if (forming == null) {
            forming = new Forming(now);
        }
        forming.calls.add(new BatchJob.Call(request.batchId(), request.items().stream().map(ModelItem::id).toList(),
                request.prompt().wireIds(), tokens));
        forming.bytes.writeBytes(line);
        forming.tokens += tokens;
        enqueued += tokens;
    }

    /** Applies what came back, submits a job that has collected long enough, and polls the jobs that are due. */
    void tick(long now, Answers answers) {
        Event event;
        while ((event = events.poll()) != null) {
            apply(event, now, answers);
        }
        if (forming != null && (now - forming.startedAt >= settings.collect().toMillis() || forming.calls.size() >= settings.maxRequests())) {
            submit(forming);
            forming = null;
        }
        for (Live job : live.values()) {
            if (!job.busy && now >= job.nextPoll) {
                poll(job);
            }
        }
    }

    private void apply(Event event, long now, Answers answers) {
        if (event instanceof Submitted s) {
            submitted(s, now, answers);
        } else if (event instanceof SubmitFailed f) {
            enqueued -= f.job().tokens;
            LOG.warn("{}: a batch job of {} calls could not be submitted: {}", who, f.job().calls.size(), describe(f.outcome()));
            f.job().calls.forEach(c -> answers.answered(c.customId(), f.outcome(), now));
        } else if (event instanceof Polled p) {
            polled(p, now, answers);
        } else if (event instanceof Downloaded d) {
            Live job = live.get(d.batchId());
            if (job != null) {
                finish(job, d.status(), d.lines(), now, answers);
            }
        } else if (event instanceof Missed m) {
            Live job = live.get(m.batchId());
            if (job != null) {
                job.busy = false;
                job.nextPoll = now + settings.poll().toMillis();
                LOG.debug("{}: batch job {}: {}; asking again in {} ms", who, m.batchId(), m.what(), settings.poll().toMillis());
            }
        }
    }

    private void submitted(Submitted s, long now, Answers answers) {
        if (s.info().id() == null) {
            apply(new SubmitFailed(s.job(), transientFailure("the provider named no batch id")), now, answers);
            return;
        }
        BatchJob job = new BatchJob(s.info().id(), scope, null, now, s.job().calls);
        jobs.put(job.batchId(), job);
        live.put(job.batchId(), new Live(job, now + settings.poll().toMillis()));
        LOG.info("{}: batch job {} submitted: {} calls, {} tokens enqueued on the route", who, job.batchId(), job.calls().size(),
                enqueued);
    }

    private void polled(Polled p, long now, Answers answers) {
        Live job = live.get(p.batchId());
        if (job == null) {
            return;
        }
        job.status = p.info().status();
        if (!job.status.terminal()) {
            job.busy = false;
            job.nextPoll = now + settings.poll().toMillis();
            return;
        }
        if (job.status == BatchStatus.FAILED) {
            ModelOutcome failed = transientFailure("batch job " + p.batchId() + " failed" + (p.info().errors() == null ? ""
                    : ": " + p.info().errors()));
            finish(job, job.status, Map.of(), now, answers, failed);
            return;
        }
        download(job, p.info());
    }

    /** Every call of {@code job} is answered from {@code found}, or unfinished, or failed; the job leaves the store. */
    private void finish(Live job, BatchStatus status, Map<String, BatchLines.Line> found, long now, Answers answers) {
        finish(job, status, found, now, answers, transientFailure("the batch job's output has no line for this call"));
    }

    private void finish(Live live, BatchStatus status, Map<String, BatchLines.Line> found, long now, Answers answers,
                        ModelOutcome missing) {
        BatchJob job = live.job;
        long latency = Math.max(0, now - job.submittedAt());
        int answered = 0;
        int unfinished = 0;
        for (BatchJob.Call call : job.calls()) {
            BatchLines.Line line = found.get(call.customId());
            if (line != null && !line.unfinished()) {
                answers.answered(call.customId(), lines.outcome(line, call, latency), now);
                answered++;
            } else if (status.leavesUnfinished()) {
                answers.unfinished(call.customId(), now);
                unfinished++;
            } else {
                answers.answered(call.customId(), missing, now);
            }
        }
        jobs.delete(job.batchId());
        this.live.remove(job.batchId());
        enqueued = Math.max(0, enqueued - job.tokens());
        if (unfinished > 0) {
            LOG.warn("{}: batch job {} {} with {} of {} calls unfinished; their tickets go to the route's fallback", who,
                    job.batchId(), status.wire(), unfinished, job.calls().size());
        } else {
            LOG.info("{}: batch job {} {}: {} of {} calls answered", who, job.batchId(), status.wire(), answered, job.calls().size());
        }
    }

    private void submit(Forming job) {
        try {
            client.submit(job.bytes.toByteArray()).whenComplete((info, error) -> report(error == null ? new Submitted(job, info)
                    : new SubmitFailed(job, failure(error))));
        } catch (RuntimeException e) {
            report(new SubmitFailed(job, failure(e)));
        }
    }

    private void poll(Live job) {
        job.busy = true;
        String id = job.job.batchId();
        try {
            client.status(id).whenComplete((info, error) -> report(error == null ? new Polled(id, info)
                    : new Missed(id, "status unknown (" + describe(failure(error)) + ")")));
        } catch (RuntimeException e) {
            report(new Missed(id, "status unknown (" + e.getClass().getSimpleName() + ")"));
        }
    }

    private void download(Live job, BatchApiClient.Info info) {
        String id = job.job.batchId();
        try {
            client.content(info.outputFileId()).thenCombine(client.content(info.errorFileId()), (out, err) -> {
                Map<String, BatchLines.Line> all = new LinkedHashMap<>(BatchLines.parse(err));
                // an output line wins over an error line of the same call
                all.putAll(BatchLines.parse(out));
                return all;
            }).whenComplete((found, error) -> report(error == null ? new Downloaded(id, info.status(), found)
                    : new Missed(id, "files not read (" + describe(failure(error)) + ")")));
        } catch (RuntimeException e) {
            report(new Missed(id, "files not read (" + e.getClass().getSimpleName() + ")"));
        }
    }

    private void report(Event event) {
        if (!closed) {
            events.add(event);
        }
    }

    /** What a failed Batch API call means for the calls it carried. */
    private ModelOutcome failure(Throwable error) {
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        if (cause instanceof BatchApiClient.Refused refused) {
            return lines.failure(refused.status(), refused.body());
        }
        String transport = TransportCause.of(cause);
        return new ModelOutcome.Failed(ModelOutcome.FailureKind.TRANSIENT, 0, "batch API: connection error: " + transport,
                Optional.empty(), RateLimitInfo.EMPTY, 0, transport);
    }

    private static ModelOutcome transientFailure(String message) {
        return new ModelOutcome.Failed(ModelOutcome.FailureKind.TRANSIENT, 0, message, Optional.empty(), RateLimitInfo.EMPTY, 0);
    }

    private static String describe(ModelOutcome outcome) {
        if (outcome instanceof ModelOutcome.Failed f) {
            return (f.status() > 0 ? "HTTP " + f.status() + ": " : "") + f.message();
        }
        if (outcome instanceof ModelOutcome.RateLimited r) {
            return "HTTP 429: " + r.message();
        }
        return "answered";
    }

    /** Jobs the provider accepted and not yet finished here. */
    int liveJobs() {
        return live.size();
    }

    /** Tokens collected, on their way, or in unfinished jobs. */
    long enqueuedTokens() {
        return enqueued;
    }

    void close() {
        closed = true;
        events.clear();
        client.close();
        lines.close();
    }
}
