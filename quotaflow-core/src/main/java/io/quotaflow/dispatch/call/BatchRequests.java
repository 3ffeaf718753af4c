package io.quotaflow.dispatch.call;

import io.quotaflow.batch.BatchApi;
import io.quotaflow.batch.BatchApiClient;
import io.quotaflow.batch.BatchJob;
import io.quotaflow.batch.BatchLines;
import io.quotaflow.llm.ModelOutcome;
import io.quotaflow.llm.TransportCause;
import io.quotaflow.quota.RateLimitInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * A batch route's requests to the Batch API (submit, status, list, cancel, read the files), each made
 * without blocking the stream thread; what each comes to is a {@link BatchEvent}, queued for the
 * {@link BatchCaller} to apply on the stream thread ({@link #next}).
 */
final class BatchRequests {

    private static final Logger LOG = LoggerFactory.getLogger(BatchRequests.class);

    private final String who;
    private final BatchApi client;
    private final BatchLines lines;
    private final Queue<BatchEvent> events = new ConcurrentLinkedQueue<>();
    private volatile boolean closed;

    BatchRequests(String who, BatchApi client, BatchLines lines) {
        this.who = who;
        this.client = client;
        this.lines = lines;
    }

    /** The next event reported, if any (the stream thread's). */
    BatchEvent next() {
        return events.poll();
    }

    /** Uploads and creates a job with {@code metadata} (its key {@code key} among them). */
    void submit(String key, byte[] bytes, Map<String, String> metadata) {
        try {
            client.submit(bytes, metadata).whenComplete((info, error) -> report(error == null
                    ? new BatchEvent.Submitted(key, info) : new BatchEvent.SubmitFailed(key, error)));
        } catch (RuntimeException e) {
            report(new BatchEvent.SubmitFailed(key, e));
        }
    }

    /** Lists the provider's recent jobs, {@code pages} pages at most. */
    void list(int pages) {
        try {
            client.list(pages).whenComplete((found, error) -> report(error == null ? new BatchEvent.Listed(found)
                    : new BatchEvent.ListFailed(describe(failure(cause(error))))));
        } catch (RuntimeException e) {
            report(new BatchEvent.ListFailed(e.getClass().getSimpleName()));
        }
    }

    /** Asks for the status of job {@code batchId} (stored under {@code key}). */
    void poll(String key, String batchId) {
        try {
            client.status(batchId).whenComplete((info, error) -> report(error == null ? new BatchEvent.Polled(key, info)
                    : new BatchEvent.Missed(key, "status unknown (" + describe(failure(cause(error))) + ")")));
        } catch (RuntimeException e) {
            report(new BatchEvent.Missed(key, "status unknown (" + e.getClass().getSimpleName() + ")"));
        }
    }

    /** Cancels job {@code batchId}; a failure is only logged. */
    void cancel(String batchId) {
        try {
            client.cancel(batchId).whenComplete((info, error) -> {
                if (error != null) {
                    LOG.debug("{}: batch job {} could not be cancelled: {}", who, batchId, describe(failure(cause(error))));
                }
            });
        } catch (RuntimeException e) {
            LOG.debug("{}: batch job {} could not be cancelled: {}", who, batchId, e.getClass().getSimpleName());
        }
    }

    /**
     * Reads the job's error file, then its output file, line by line, each line turned into its call's
     * outcome as it is read (an output line wins over an error line of the same call): only outcomes are
     * held, never a file.
     */
    void download(String key, BatchJob stored, BatchApiClient.Info info, long now) {
        Map<String, BatchJob.Call> calls = new HashMap<>();
        stored.calls().forEach(c -> calls.put(c.customId(), c));
        long latency = Math.max(0, now - stored.submittedAt());
        Map<String, ModelOutcome> outcomes = new java.util.concurrent.ConcurrentHashMap<>();
        Set<String> unfinished = java.util.concurrent.ConcurrentHashMap.newKeySet();
        java.util.function.Consumer<BatchLines.Line> each = line -> {
            BatchJob.Call call = calls.get(line.customId());
            if (call == null) {
                return;
            }
            if (line.unfinished()) {
                unfinished.add(call.customId());
            } else {
                unfinished.remove(call.customId());
                outcomes.put(call.customId(), lines.outcome(line, call, latency));
            }
        };
        try {
            CompletableFuture<Void> read = client.lines(info.errorFileId(), each).thenCompose(v -> client.lines(info.outputFileId(), each));
            read.whenComplete((v, error) -> report(error == null ? new BatchEvent.Downloaded(key, info.status(), outcomes, unfinished)
                    : new BatchEvent.Missed(key, "files not read (" + describe(failure(cause(error))) + ")")));
        } catch (RuntimeException e) {
            report(new BatchEvent.Missed(key, "files not read (" + e.getClass().getSimpleName() + ")"));
        }
    }

    private void report(BatchEvent event) {
        if (!closed) {
            events.add(event);
        }
    }

    static Throwable cause(Throwable error) {
        return error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
    }

    /** What a failed Batch API call means for the calls it carried. */
    ModelOutcome failure(Throwable cause) {
        if (cause instanceof BatchApiClient.Refused refused) {
            return lines.failure(refused.status(), refused.body());
        }
        String transport = TransportCause.of(cause);
        return new ModelOutcome.Failed(ModelOutcome.FailureKind.TRANSIENT, 0, "batch API: connection error: " + transport,
                Optional.empty(), RateLimitInfo.EMPTY, 0, transport);
    }

    static ModelOutcome transientFailure(String message) {
        return new ModelOutcome.Failed(ModelOutcome.FailureKind.TRANSIENT, 0, message, Optional.empty(), RateLimitInfo.EMPTY, 0);
    }

    /** The prompt and completion tokens of the answered {@code outcomes}, summed. */
    static long[] usage(java.util.Collection<ModelOutcome> outcomes) {
        long[] usage = new long[2];
        for (ModelOutcome o : outcomes) {
            if (o instanceof ModelOutcome.Answered a) {
                usage[0] += a.promptTokens();
                usage[1] += a.completionTokens();
            }
        }
        return usage;
    }

    static String describe(ModelOutcome outcome) {
        if (outcome instanceof ModelOutcome.Failed f) {
            return (f.status() > 0 ? "HTTP " + f.status() + ": " : "") + f.message();
        }
        if (outcome instanceof ModelOutcome.RateLimited r) {
            return "HTTP 429: " + r.message();
        }
        return "answered";
    }

    void close() {
        closed = true;
        events.clear();
        client.close();
        lines.close();
    }
}
