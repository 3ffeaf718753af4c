package io.quotaflow.dispatch.call;

import io.quotaflow.batch.BatchApi;
import io.quotaflow.batch.BatchApiClient;
import io.quotaflow.batch.BatchJob;
import io.quotaflow.batch.BatchLines;
import io.quotaflow.batch.BatchStatus;
import io.quotaflow.llm.ModelItem;
import io.quotaflow.llm.ModelOutcome;
import io.quotaflow.llm.ModelRequest;
import io.quotaflow.settings.BatchApiSettings;
import io.quotaflow.ticket.WorkItem;
import io.quotaflow.tracing.Tracing;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * The calls of a batch route (docs/design.md, "Batch routes"): in place of the {@link CallSender}, it
 * collects them into a batch job, records the intent to submit it (a job key in the changelogged
 * {@code qf-batch-jobs} store, the same key in the job's {@code metadata}), submits the job (upload and
 * create, off the stream thread), polls it from the punctuator, reads its output and error files line by
 * line when it ends, and hands each call's outcome to the stream thread. The record stays in the store
 * until every call of the job is answered, in the same step as the results it leads to: a restart, or
 * the scope's next owner, polls the same job, or finds it among the provider's jobs by its key
 * ({@link #reconcile}), and no result is written twice.
 *
 * <p>Every job ends: one whose status cannot be read for longer than its completion window plus
 * {@code batch.expiry-grace-ms} ends here as expired (its tickets to the fallback, its tokens out of the
 * count). A job refused for the provider's enqueued-token limit ({@code token_limit_exceeded}) teaches
 * the limit ({@link EnqueuedLimit}) and its calls go back to wait, without an attempt or a failure.
 *
 * <p>Limits: at most {@code batch.max-requests} calls, {@code batch.max-file-bytes} bytes and
 * {@link BatchJob#RECORD_BUDGET} bytes of stored record a job, and the enqueued-token limit over the
 * route's unfinished jobs ({@link #room}).
 */
public final class BatchCaller {

    private static final Logger LOG = LoggerFactory.getLogger(BatchCaller.class);
    /** The error code of a job refused for the provider's enqueued-token limit. */
    static final String TOKEN_LIMIT = "token_limit_exceeded";
    /** Pages of the provider's jobs one reconciliation reads at most ({@code GET /batches}, 100 a page). */
    static final int LIST_PAGES = 20;
    /** Polls between two reconciliations while the route runs. */
    static final int RECONCILE_EVERY_POLLS = 10;

    /** Where the outcomes go, on the stream thread. */
    public interface Answers {

        /** Call {@code customId} came to {@code outcome}. */
        void answered(String customId, ModelOutcome outcome, long now);

        /** The job ended ({@code expired}, {@code cancelled}) before it got to call {@code customId}. */
        void unfinished(String customId, long now);

        /** Call {@code customId} was never run (its job was refused for the enqueued limit): its tickets wait again. */
        void requeued(String customId, long now);
    }

    final String scope;
    final String who;
    final BatchApiSettings settings;
    final BatchRequests requests;
    final KeyValueStore<String, BatchJob> jobs;
    private final EnqueuedLimit limit;
    private final Tracing.Jobs traces;
    final Map<String, LiveJob> live = new LinkedHashMap<>();
    private FormingJob forming;
    /** Tokens of the calls collected, on their way, or in jobs not finished. */
    long enqueued;
    long nextReconcile = Long.MAX_VALUE;
    boolean listing;
    /** This caller holds or held jobs of its scope (restored or submitted): only then does it reconcile and cancel. */
    boolean active;

    public BatchCaller(String scope, String who, BatchApiSettings settings, BatchApi client, BatchLines lines,
                KeyValueStore<String, BatchJob> jobs, Tracing.Jobs traces) {
        this.traces = traces;
        this.scope = scope;
        this.who = who;
        this.settings = settings;
        this.requests = new BatchRequests(who, client, lines);
        this.jobs = jobs;
        this.limit = new EnqueuedLimit(settings.maxEnqueuedTokens());
    }

    /**
     * Takes this scope's jobs back from the store; returns the ids of their calls (still out). The
     * provider's jobs are then listed once ({@link #reconcile}): an intent is adopted when the provider
     * holds its job, its calls asked again when it does not.
     */
    public Set<String> restore(long now) {
        return BatchReconcile.restore(this, now);
    }

    /** Whether a call of {@code tokens} fits the enqueued-token limit now (one alone always does). */
    public boolean room(long tokens) {
        return enqueued == 0 || enqueued + tokens <= limit.limit();
    }

    /** Collects {@code request} for {@code tickets} (its span links to them), counted at {@code tokens}, into the job being formed. */
    public void send(ModelRequest request, List<WorkItem> tickets, long tokens, long now) {
        byte[] line = BatchLines.requestLine(request.batchId(), request.prompt().body());
        BatchJob.Call call = new BatchJob.Call(request.batchId(), request.items().stream().map(ModelItem::id).toList(),
                request.prompt().wireIds(), tokens);
        if (forming != null && (forming.calls.size() >= settings.maxRequests()
                || forming.bytes.size() + (long) line.length > settings.maxFileBytes()
                || forming.recordBytes + call.recordBytes() > BatchJob.RECORD_BUDGET)) {
            submit(forming, now);
            forming = null;
        }
        if (forming == null) {
            forming = new FormingJob(now);
            forming.recordBytes = new BatchJob(null, scope, null, now, List.of(), "").recordBytes() + 64;
            forming.span = traces.forming();
        }
        forming.span.add(request, tickets, now);
        forming.calls.add(call);
        forming.bytes.writeBytes(line);
        forming.recordBytes += call.recordBytes();
        enqueued += tokens;
    }

    /** Applies what came back, submits a job that has collected long enough, polls the jobs that are due, ends those past their time. */
    public void tick(long now, Answers answers) {
        BatchEvent event;
        while ((event = requests.next()) != null) {
            apply(event, now, answers);
        }
        if (forming != null && (now - forming.startedAt >= settings.collect().toMillis() || forming.calls.size() >= settings.maxRequests())) {
            submit(forming, now);
            forming = null;
        }
        long expiresAfter = settings.expiresAfter().toMillis();
        for (LiveJob job : List.copyOf(live.values())) {
            if (job.submitting || job.busy) {
                continue;
            }
            if (now - job.job.submittedAt() >= expiresAfter) {
                expire(job, now, answers);
            } else if (job.job.isAccepted() && now >= job.nextPoll) {
                job.busy = true;
                requests.poll(job.key, job.job.batchId());
            }
        }
        if (active && !listing && now >= nextReconcile) {
            reconcile(now);
        }
    }

    private void apply(BatchEvent event, long now, Answers answers) {
        if (event instanceof BatchEvent.Submitted s) {
            submitted(s, now, answers);
        } else if (event instanceof BatchEvent.SubmitFailed f) {
            submitFailed(f, now, answers);
        } else if (event instanceof BatchEvent.Polled p) {
            polled(p, now, answers);
        } else if (event instanceof BatchEvent.Downloaded d) {
            LiveJob job = live.get(d.key());
            if (job != null) {
                finish(job, d.status(), d.outcomes(), d.unfinished(), now, answers);
            }
        } else if (event instanceof BatchEvent.Missed m) {
            missed(m, now);
        } else if (event instanceof BatchEvent.Listed l) {
            BatchReconcile.listed(this, l.jobs(), now, answers);
        } else if (event instanceof BatchEvent.ListFailed f) {
            listing = false;
            nextReconcile = now + settings.poll().toMillis();
            LOG.debug("{}: the provider's batch jobs could not be listed ({}); asking again in {} ms", who, f.what(),
                    settings.poll().toMillis());
        }
    }

    private void submitted(BatchEvent.Submitted s, long now, Answers answers) {
        LiveJob job = live.get(s.key());
        if (job == null) {
            return;
        }
        if (s.info().id() == null) {
            submitFailed(new BatchEvent.SubmitFailed(s.key(), new BatchApiClient.Refused(502, "the provider named no batch id")), now, answers);
            return;
        }
        job.job = job.job.accepted(s.info().id());
        job.span.accepted(s.info().id());
        job.submitting = false;
        job.nextPoll = now + settings.poll().toMillis();
        jobs.put(job.key, job.job);
        LOG.info("{}: batch job {} submitted: {} calls, {} tokens enqueued on the route", who, job.job.batchId(), job.job.calls().size(),
                enqueued);
    }

    private void submitFailed(BatchEvent.SubmitFailed f, long now, Answers answers) {
        LiveJob job = live.get(f.key());
        if (job == null) {
            return;
        }
        Throwable cause = BatchRequests.cause(f.error());
        if (cause instanceof BatchApiClient.Refused refused && refused.body() != null && refused.body().contains(TOKEN_LIMIT)) {
            refused(job, refused.body(), now, answers);
            return;
        }
        ModelOutcome outcome = requests.failure(cause);
        if (!(cause instanceof BatchApiClient.Refused)) {
            // the create may have reached the provider: its job, under a key no longer stored, is cancelled when found
            nextReconcile = Math.min(nextReconcile, now + settings.poll().toMillis());
        }
        forget(job);
        job.span.end("not_submitted", 0, 0, 0, "not submitted", now);
        LOG.warn("{}: a batch job of {} calls could not be submitted: {}", who, job.job.calls().size(), BatchRequests.describe(outcome));
        job.job.calls().forEach(c -> answers.answered(c.customId(), outcome, now));
    }

    private void polled(BatchEvent.Polled p, long now, Answers answers) {
        LiveJob job = live.get(p.key());
        if (job == null) {
            return;
        }
        job.status = p.info().status();
        if (job.status == BatchStatus.UNKNOWN && !job.unknownLogged) {
            job.unknownLogged = true;
            LOG.warn("{}: batch job {} has a status this build does not know; taken as not finished until its window and grace "
                    + "have passed", who, job.job.batchId());
        }
        if (!job.status.terminal()) {
            job.busy = false;
            job.nextPoll = now + settings.poll().toMillis();
            return;
        }
        if (job.status == BatchStatus.FAILED && TOKEN_LIMIT.equals(p.info().errorCode())) {
            refused(job, p.info().errors(), now, answers);
            return;
        }
        if (job.status == BatchStatus.FAILED) {
            failed(job, p.info().errors(), now, answers);
            return;
        }
        if (job.status == BatchStatus.COMPLETED && p.info().inputTokens() > 0) {
            limit.counted(job.job.tokens(), p.info().inputTokens());
        }
        requests.download(job.key, job.job, p.info(), now);
    }

    /**
     * {@code job} failed as a whole (not for the enqueued limit): one failure of the provider, not one a
     * call. Its first call fails (its tickets spend an attempt, the circuit hears it once, the failure
     * table retries or dead-letters them); the others wait for the next job, with no attempt spent.
     */
    private void failed(LiveJob job, String errors, long now, Answers answers) {
        ModelOutcome failed = BatchRequests.transientFailure("batch job " + job.job.batchId() + " failed" + (errors == null ? "" : ": " + errors));
        forget(job);
        job.span.end(BatchStatus.FAILED.wire(), 0, 0, 0, "failed", now);
        LOG.warn("{}: batch job {} failed ({}): its first call fails, its other {} wait for the next job", who, job.job.batchId(),
                errors == null ? "no reason given" : errors, job.job.calls().size() - 1);
        List<BatchJob.Call> calls = job.job.calls();
        for (int i = 0; i < calls.size(); i++) {
            if (i == 0) {
                answers.answered(calls.get(i).customId(), failed, now);
            } else {
                answers.requeued(calls.get(i).customId(), now);
            }
        }
    }

    private void missed(BatchEvent.Missed m, long now) {
        LiveJob job = live.get(m.key());
        if (job != null) {
            job.busy = false;
            job.nextPoll = now + settings.poll().toMillis();
            LOG.debug("{}: batch job {}: {}; asking again in {} ms", who, job.job.batchId(), m.what(), settings.poll().toMillis());
        }
    }

    /**
     * The provider refused {@code job} for its enqueued-token limit: the limit is learned, the job leaves
     * the store and the count, and its calls go back to wait for room, with no attempt spent, no circuit
     * opened and no fallback. A lone call refused with nothing else enqueued cannot fit at all: it fails.
     */
    private void refused(LiveJob job, String message, long now, Answers answers) {
        // what the provider held of ours with it: the jobs on their way or out, this one's included (not the one collecting)
        long held = live.values().stream().mapToLong(l -> l.job.tokens()).sum();
        boolean alone = job.job.calls().size() == 1 && held <= job.job.tokens();
        long learned = limit.refused(message, held);
        forget(job);
        job.span.end(BatchStatus.FAILED.wire(), 0, 0, 0, TOKEN_LIMIT, now);
        LOG.warn("{}: batch job of {} calls refused for the provider's enqueued-token limit ({} held here); limit learned: {} "
                + "(theirs), {} (ours at ratio {}); its calls wait for room", who, job.job.calls().size(), held, learned, limit.limit(),
                String.format(java.util.Locale.ROOT, "%.2f", limit.ratio()));
        for (BatchJob.Call call : job.job.calls()) {
            if (alone) {
                answers.answered(call.customId(), BatchRequests.transientFailure("a lone call is over the provider's enqueued-token limit: "
                        + message), now);
            } else {
                answers.requeued(call.customId(), now);
            }
        }
    }

    /** {@code job} has not ended within its window and grace: it ends here as expired, and is cancelled at the provider. */
    private void expire(LiveJob job, long now, Answers answers) {
        LOG.warn("{}: batch job {} not known to have ended {} after its submission (last status {}): it ends as expired and "
                + "its tickets go on", who, job.job.isAccepted() ? job.job.batchId() : "(never found at the provider, key " + job.key
                + ")", settings.expiresAfter(), job.status.wire());
        if (job.job.isAccepted()) {
            requests.cancel(job.job.batchId());
        }
        finish(job, BatchStatus.EXPIRED, Map.of(), Set.of(), now, answers);
    }

    /** Every call of {@code job} is answered from {@code found}, or unfinished, or failed; the job leaves the store. */
    private void finish(LiveJob live, BatchStatus status, Map<String, ModelOutcome> found, Set<String> unfinishedLines, long now,
                        Answers answers) {
        BatchJob job = live.job;
        ModelOutcome missing = BatchRequests.transientFailure("the batch job's output has no line for this call");
        int answered = 0;
        int unfinished = 0;
        for (BatchJob.Call call : job.calls()) {
            ModelOutcome outcome = found.get(call.customId());
            if (outcome != null) {
                answers.answered(call.customId(), outcome, now);
                answered++;
            } else if (status.leavesUnfinished() || unfinishedLines.contains(call.customId())) {
                answers.unfinished(call.customId(), now);
                unfinished++;
            } else {
                answers.answered(call.customId(), missing, now);
            }
        }
        forget(live);
        long[] usage = BatchRequests.usage(found.values());
        live.span.end(status.wire(), usage[0], usage[1], answered, status == BatchStatus.COMPLETED ? null : status.wire(), now);
        String name = job.isAccepted() ? job.batchId() : "key " + live.key;
        if (unfinished > 0) {
            LOG.warn("{}: batch job {} {} with {} of {} calls unfinished; their tickets go to the route's fallback", who, name,
                    status.wire(), unfinished, job.calls().size());
        } else {
            LOG.info("{}: batch job {} {}: {} of {} calls answered", who, name, status.wire(), answered, job.calls().size());
        }
    }

    /** {@code job} leaves the store, this caller and the enqueued count. */
    void forget(LiveJob job) {
        jobs.delete(job.key);
        live.remove(job.key);
        enqueued = Math.max(0, enqueued - job.job.tokens());
    }

    /** Lists the provider's recent jobs to find this scope's by their key ({@link BatchReconcile#reconcile}). */
    private void reconcile(long now) {
        BatchReconcile.reconcile(this);
    }

    /** Records the intent of {@code job} under a new key, then uploads and creates it with that key in its metadata. */
    private void submit(FormingJob forming, long now) {
        String key = UUID.randomUUID().toString();
        BatchJob intent = BatchJob.intent(key, scope, now, forming.calls);
        LiveJob job = new LiveJob(key, intent, Long.MAX_VALUE);
        job.submitting = true;
        job.span = forming.span;
        job.span.submitted(forming.calls.size(), now);
        jobs.put(key, intent);
        live.put(key, job);
        active = true;
        if (nextReconcile == Long.MAX_VALUE && !listing) {
            nextReconcile = now + RECONCILE_EVERY_POLLS * settings.poll().toMillis();
        }
        Map<String, String> metadata = Map.of(BatchApiClient.METADATA_JOB, key, BatchApiClient.METADATA_SCOPE, scope);
        requests.submit(key, forming.bytes.toByteArray(), metadata);
    }

    /** Jobs of the store not yet finished here (intents included). */
    int liveJobs() {
        return live.size();
    }

    /** Tokens collected, on their way, or in unfinished jobs. */
    long enqueuedTokens() {
        return enqueued;
    }

    /** The enqueued-token limit in force, in our count: the configured one until the provider's is learned. */
    long enqueuedLimit() {
        return limit.limit();
    }

    public void close() {
        requests.close();
    }
}
