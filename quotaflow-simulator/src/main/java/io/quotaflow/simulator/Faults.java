package io.quotaflow.simulator;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Fault injection (the flags {@code --p500 --p503 --p529 --p-malformed --p-missing-item
 * --p-hang --p-stall-body --outage START:END --fail-auth}), also switchable at run time with
 * {@link ProviderSimulator#setFaults(Faults)} or {@code POST /admin/faults}.
 *
 * <p>The probabilities apply to every chat-completion request that passed authentication and
 * validation, and are exclusive: one uniform draw of the simulator's seeded random source
 * picks at most one fault, so their sum must not exceed 1. HTTP 500, 503, 529 and hangs are
 * drawn before the rate limits and never debit them; a malformed or missing-item answer is a
 * 200 that was admitted, so it debits them like any other 200 (and, when the buckets are short,
 * the request gets its 429 instead). A stalled body is an admitted 200 as well.
 *
 * @param p500         probability of an HTTP 500 {@code server_error}
 * @param p503         probability of an HTTP 503 "The server is overloaded or not ready yet."
 * @param p529         probability of an HTTP 529 {@code overloaded_error}
 * @param pMalformed   probability of a 200 whose message content is not valid JSON
 * @param pMissingItem probability of a 200 whose results omit one ticket id of the batch
 * @param pHang        probability of never answering (the connection is closed after
 *                     {@link ProviderSimulator#HANG}; the client's timeout must fire first)
 * @param pStallBody   probability of a 200 whose headers and first half of the body are sent, and then nothing:
 *                     the connection is held open and closed after {@link ProviderSimulator#HANG} (the
 *                     client's whole-call deadline must fire first); never drawn for a batch line
 * @param outages      windows, relative to the simulator's start, during which every
 *                     chat-completion request (or, for a window naming a model, every request for
 *                     that model) gets 503 (without debiting the rate limits)
 * @param failAuth     answer every request with 401 {@code invalid_api_key}
 */
public record Faults(
        double p500,
        double p503,
        double p529,
        double pMalformed,
        double pMissingItem,
        double pHang,
        double pStallBody,
        List<Outage> outages,
        boolean failAuth) {

    private static final Faults NONE = new Faults(0, 0, 0, 0, 0, 0, 0, List.of(), false);
    /** Tolerance of the sum-of-probabilities check (decimal flags such as 0.1 + 0.2 + 0.7). */
    private static final double SUM_EPSILON = 1e-9;

    public Faults {
        probability("p500", p500);
        probability("p503", p503);
        probability("p529", p529);
        probability("pMalformed", pMalformed);
        probability("pMissingItem", pMissingItem);
        probability("pHang", pHang);
        probability("pStallBody", pStallBody);
        double sum = p500 + p503 + p529 + pMalformed + pMissingItem + pHang + pStallBody;
        if (sum > 1 + SUM_EPSILON) {
            throw new IllegalArgumentException("fault probabilities are exclusive and must add up to at most 1: "
                    + "p500 + p503 + p529 + pMalformed + pMissingItem + pHang + pStallBody = " + sum);
        }
        outages = List.copyOf(Objects.requireNonNull(outages, "outages"));
    }

    /** No faults at all. */
    public static Faults none() {
        return NONE;
    }

    /** A builder starting from {@link #none()}. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder pre-filled with these faults. */
    public Builder toBuilder() {
        return new Builder().p500(p500).p503(p503).p529(p529).pMalformed(pMalformed)
                .pMissingItem(pMissingItem).pHang(pHang).pStallBody(pStallBody).outages(outages).failAuth(failAuth);
    }

    /** Whether any fault is configured. */
    public boolean any() {
        return !equals(NONE);
    }

    /** The sum of the probabilities: the chance that a request draws some fault. */
    public double probabilitySum() {
        return p500 + p503 + p529 + pMalformed + pMissingItem + pHang + pStallBody;
    }

    /**
     * Whether {@code sinceStart} (time since the simulator started) falls in an outage window of
     * every model (windows naming one model do not count here).
     */
    public boolean inOutage(Duration sinceStart) {
        for (Outage outage : outages) {
            if (outage.model().isEmpty() && outage.contains(sinceStart)) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code model} is down at {@code sinceStart}: an outage of every model or of that one. */
    public boolean inOutage(String model, Duration sinceStart) {
        for (Outage outage : outages) {
            if (outage.covers(model, sinceStart)) {
                return true;
            }
        }
        return false;
    }

    /** {@code p500=0.1, outage=30:90, fail-auth}, or {@code none}: for banners and logs. */
    public String describe() {
        if (!any()) {
            return "none";
        }
        List<String> parts = new ArrayList<>();
        add(parts, "p500", p500);
        add(parts, "p503", p503);
        add(parts, "p529", p529);
        add(parts, "p-malformed", pMalformed);
        add(parts, "p-missing-item", pMissingItem);
        add(parts, "p-hang", pHang);
        add(parts, "p-stall-body", pStallBody);
        outages.forEach(o -> parts.add("outage=" + o));
        if (failAuth) {
            parts.add("fail-auth");
        }
        return String.join(", ", parts);
    }

    private static void add(List<String> parts, String name, double p) {
        if (p > 0) {
            parts.add(name + "=" + BigDecimal.valueOf(p).stripTrailingZeros().toPlainString());
        }
    }

    private static void probability(String name, double p) {
        if (!(p >= 0 && p <= 1)) {
            throw new IllegalArgumentException(name + " must be a probability in [0, 1]: " + p);
        }
    }

    /** Mutable builder of {@link Faults}; {@link #build()} validates. */
    public static final class Builder {
        private double p500;
        private double p503;
        private double p529;
        private double pMalformed;
        private double pMissingItem;
        private double pHang;
        private double pStallBody;
        private final List<Outage> outages = new ArrayList<>();
        private boolean failAuth;

        private Builder() {
        }

        public Builder p500(double p) {
            this.p500 = p;
            return this;
        }

        public Builder p503(double p) {
            this.p503 = p;
            return this;
        }

        public Builder p529(double p) {
            this.p529 = p;
            return this;
        }

        public Builder pMalformed(double p) {
            this.pMalformed = p;
            return this;
        }

        public Builder pMissingItem(double p) {
            this.pMissingItem = p;
            return this;
        }

        public Builder pHang(double p) {
            this.pHang = p;
            return this;
        }

        public Builder pStallBody(double p) {
            this.pStallBody = p;
            return this;
        }

        /** Adds an outage window {@code [start, end)} measured from the simulator's start. */
        public Builder outage(Duration start, Duration end) {
            outages.add(new Outage(start, end));
            return this;
        }

        /** Adds an outage window {@code [start, end)} of one model only. */
        public Builder outage(String model, Duration start, Duration end) {
            outages.add(new Outage(start, end, Optional.of(model)));
            return this;
        }

        /** Adds an outage window (of every model or of one), e.g. one {@link Outage#parse parsed}. */
        public Builder outage(Outage window) {
            outages.add(Objects.requireNonNull(window, "window"));
            return this;
        }

        /** Adds an outage window, in seconds from the simulator's start. */
        public Builder outageSeconds(long startSeconds, long endSeconds) {
            return outage(Duration.ofSeconds(startSeconds), Duration.ofSeconds(endSeconds));
        }

        /** Replaces the outage windows. */
        public Builder outages(List<Outage> windows) {
            outages.clear();
            outages.addAll(windows);
            return this;
        }

        public Builder failAuth(boolean failAuth) {
            this.failAuth = failAuth;
            return this;
        }

        public Faults build() {
            return new Faults(p500, p503, p529, pMalformed, pMissingItem, pHang, pStallBody, outages, failAuth);
        }
    }
}
