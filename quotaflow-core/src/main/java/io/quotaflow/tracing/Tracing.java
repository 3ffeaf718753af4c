package io.quotaflow.tracing;

import io.quotaflow.llm.ModelOutcome;
import io.quotaflow.llm.ModelRequest;
import io.quotaflow.settings.ModelSettings;
import io.quotaflow.ticket.WorkItem;
import org.apache.kafka.common.header.Headers;

import java.util.List;

/**
 * What the pipeline tells its traces (docs/operations.md, "Traces"). A ticket's trace context travels in its
 * {@code traceparent} (and {@code tracestate}) header among {@link WorkItem#headers()}: through the dispatch
 * topic, the dispatcher's stores and {@code tickets.retry}, and onto its result, dead letter and hand-off.
 * Every method returns at once and never throws; {@link #NOOP} does nothing, and leaves every item and header
 * as it was.
 */
public interface Tracing {

    /** Traces off: no SDK, nothing recorded or sent. */
    Tracing NOOP = new Tracing() {
    };

    /**
     * The intake span of {@code item}, parsed and routed at {@code nowMs}: the child of its producer's
     * {@code traceparent} (a trace of its own without one); returns the item carrying the span's context.
     */
    default WorkItem intake(WorkItem item, long nowMs) {
        return item;
    }

    /** The calls of one model: a span per call. */
    default Calls calls(ModelSettings model) {
        return Calls.NONE;
    }

    /** The Batch API jobs of one model: a span per job. */
    default Jobs jobs(ModelSettings model) {
        return Jobs.NONE;
    }

    /**
     * {@code item} entered its scope's queue with {@code ahead} tickets of its class waiting before it: the
     * {@code quotaflow.position} of its wait span (kept for a bounded number of waiting tickets).
     */
    default void entered(WorkItem item, int ahead) {
    }

    /**
     * {@code item} moves from route {@code from} to route {@code to} for {@code reason} (a fallback): an event
     * on its trace.
     */
    default void fallback(WorkItem item, String from, String to, String reason, long nowMs) {
    }

    /**
     * Something that happened to {@code item} outside a call, as a span of its trace with one event: a retry, a
     * fallback, a hand-off, a shed or a dead letter ({@code what}) and why ({@code reason}); {@code failed} marks
     * the ticket as failed (an error status).
     */
    default void event(WorkItem item, String what, String reason, boolean failed, long nowMs) {
    }

    /** Adds {@code item}'s trace context ({@code traceparent}, {@code tracestate}) to a record it writes. */
    default void inject(WorkItem item, Headers headers) {
        TraceHeaders.copy(item, headers);
    }

    /** Spans dropped so far: their export failed, or the SDK's queue was full ({@code quotaflow_trace_spans_dropped_total}). */
    default long spansDropped() {
        return 0;
    }

    /** Ends the SDK: flushes what it can within a few seconds. */
    default void close() {
    }

    /** Spans of the calls to one model. */
    interface Calls {

        /** No spans. */
        Calls NONE = (request, tickets) -> Call.NONE;

        /**
         * A call of {@code request} starting now for {@code tickets} (empty for a probe): the wait of each ticket
         * ends, and the call's CLIENT span starts, the child of the first ticket's context, linked to every one.
         */
        Call start(ModelRequest request, List<WorkItem> tickets);
    }

    /** Spans of the Batch API jobs of one model. */
    interface Jobs {

        /** No spans. */
        Jobs NONE = () -> Job.NONE;

        /** A job being collected: its span starts when it is submitted. */
        Job forming();
    }

    /**
     * One Batch API job's span ({@code batch {model}}), linked to every ticket of the job: started at its
     * submission, ended when the job ends. Every method returns at once and never throws.
     */
    interface Job {

        /** Nothing recorded. */
        Job NONE = new Job() {
        };

        /** The call {@code request} for {@code tickets} joins the job: their waits end, the job links to them. */
        default void add(ModelRequest request, List<WorkItem> tickets, long nowMs) {
        }

        /** The job is submitted (its span starts) with its {@code calls} calls. */
        default void submitted(int calls, long nowMs) {
        }

        /** The provider accepted the job as {@code batchId}. */
        default void accepted(String batchId) {
        }

        /**
         * The job ended with the provider's {@code status} ({@code completed}, {@code failed}, {@code expired},
         * {@code cancelled}, ...), {@code inputTokens} and {@code outputTokens} of the lines it answered;
         * {@code error} non-null marks it failed.
         */
        default void end(String status, long inputTokens, long outputTokens, int answered, String error, long nowMs) {
        }
    }

    /** One call's span, ended by its outcome (on whatever thread it arrives). */
    interface Call {

        /** Nothing to end. */
        Call NONE = outcome -> {
        };

        void end(ModelOutcome outcome);
    }
}
