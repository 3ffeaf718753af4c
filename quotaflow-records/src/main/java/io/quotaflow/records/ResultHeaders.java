package io.quotaflow.records;

/**
 * The headers quotaflow adds to a result on {@code tickets.classified} answered by a model call of its
 * own, besides the ticket's {@code traceparent}: when that call went out and, for an interactive ticket,
 * when it reached its dispatcher, so that a reader can split a ticket's time into the hop to the
 * dispatcher, the wait before its call, the call ({@code latencyMs}) and what follows it
 * (docs/benchmark.md, "Where an interactive ticket's time goes").
 */
public final class ResultHeaders {

    /** When the answering call was sent, in epoch milliseconds (decimal ASCII); absent on a cached answer. */
    public static final String SENT_AT = "qf.sent-at";
    /**
     * On an interactive ticket's result: when it reached its dispatcher, in epoch milliseconds (decimal ASCII);
     * absent when the dispatcher that answered it was not the one it reached (a restart, a rebalance).
     */
    public static final String ARRIVED_AT = "qf.arrived-at";

    private ResultHeaders() {
    }
}
