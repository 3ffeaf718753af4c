package io.quotaflow.records;

/**
 * The header quotaflow adds to a result on {@code tickets.classified} answered by a model call of its
 * own, besides the ticket's {@code traceparent}: when that call went out, so that a reader can split a
 * ticket's time into the wait before its call, the call ({@code latencyMs}) and what follows it
 * (docs/benchmark.md, "Where an interactive ticket's time goes").
 */
public final class ResultHeaders {

    /** When the answering call was sent, in epoch milliseconds (decimal ASCII); absent on a cached answer. */
    public static final String SENT_AT = "qf.sent-at";

    private ResultHeaders() {
    }
}
