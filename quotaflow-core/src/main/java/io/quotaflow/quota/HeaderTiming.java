package io.quotaflow.quota;

/**
 * Learns when a provider takes the rate-limit headers it answers with: when it admits the call (as
 * real providers do, so with two-second calls they are two seconds old: before the calls admitted
 * since and without the refill since) or when it answers. Two answers in a row tell: between the
 * two snapshots the provider refilled and charged the calls that reached it, so the second
 * {@code remaining} is the first plus the refill minus the calls sent between the two admissions (if
 * taken at admission) or between the two receipts (if taken at the answer). Each pair adds how far
 * each prediction missed, and how far a third one missed: headers taken halfway between admission
 * and answer, which is what a provider whose moment varies from call to call looks like on average.
 * Once {@value #MIN_PAIRS} pairs are in and one end explains the last {@value #WINDOW} with less than
 * half the miss of both the other end and the middle, that is the provider's timing. Without the
 * middle, a provider taking its headers anywhere in between (each end missing about as much as the
 * other) would now and then pass for one end on a few pairs; believing that of a provider that is not
 * admission-timed over-credits refill, which is a 429. A full
 * bucket (refill lost) makes both predictions miss, so it delays the decision rather than turning it;
 * a pair with a level of 0 (possibly a bucket in debt reported as empty) is skipped.
 *
 * <p>Until it knows (and whenever the evidence is mixed) the limiter assumes the headers may have
 * been taken at any moment in between, which costs quota but is right for either. Owned by one
 * stream task; not thread-safe; a pure function of what it was shown.
 */
public final class HeaderTiming {

    /** What the headers are, as far as learned. */
    public enum Moment {
        /** Not known (yet): anywhere between the call's admission and its answer. */
        UNKNOWN,
        /** Taken when the provider admitted the call. */
        ADMISSION,
        /** Taken when the provider answered. */
        ANSWER
    }

    static final int WINDOW = 16;
    static final int MIN_PAIRS = 6;
    static final double DECISIVE = 0.5;

    private final double[] admissionMisses = new double[WINDOW];
    private final double[] middleMisses = new double[WINDOW];
    private final double[] answerMisses = new double[WINDOW];
    private long pairs;
    private boolean hasLast;
    private long lastRemaining;
    private long lastSentNanos;
    private long lastReceivedNanos;
    private Moment moment = Moment.UNKNOWN;

    /** One answer's tokens {@code remaining} for the call sent at {@code sentNanos}, received at {@code receivedNanos}. */
    public record Answer(long remaining, long sentNanos, long receivedNanos) {
    }

    /**
     * What the calls admitted in an interval of send times cost: {@code between(from, to)} sums the
     * calls sent after {@code from} up to and including {@code to}.
     */
    @FunctionalInterface
    public interface Admitted {
        long between(long fromExclusiveNanos, long toInclusiveNanos);
    }

    /**
     * Adds {@code answer} (received after the one before it) against the previous one.
     *
     * @param ratePerSecond the provider's refill rate, tokens per second
     */
    public Moment observe(Answer answer, Admitted admitted, double ratePerSecond) {
        // a level of 0 may be a bucket in debt reported as empty: the pair says nothing
        boolean clamped = answer.remaining() <= 0 || lastRemaining <= 0;
        if (hasLast && !clamped && answer.receivedNanos() >= lastReceivedNanos) {
            long observed = answer.remaining() - lastRemaining;
            double atAdmission = change(lastSentNanos, answer.sentNanos(), admitted, ratePerSecond);
            double atAnswer = change(lastReceivedNanos, answer.receivedNanos(), admitted, ratePerSecond);
            double atMiddle = change(middle(lastSentNanos, lastReceivedNanos), middle(answer.sentNanos(), answer.receivedNanos()),
                    admitted, ratePerSecond);
            int slot = (int) (pairs++ % WINDOW);
            admissionMisses[slot] = Math.abs(observed - atAdmission);
            middleMisses[slot] = Math.abs(observed - atMiddle);
            answerMisses[slot] = Math.abs(observed - atAnswer);
            moment = decide();
        }
        hasLast = true;
        lastRemaining = answer.remaining();
        lastSentNanos = answer.sentNanos();
        lastReceivedNanos = answer.receivedNanos();
        return moment;
    }

    private static long middle(long sentNanos, long receivedNanos) {
        return sentNanos + (receivedNanos - sentNanos) / 2;
    }

    /** How the level changes between snapshots taken at {@code from} and {@code to}: refill, minus the calls sent between. */
    private static double change(long from, long to, Admitted admitted, double ratePerSecond) {
        if (to >= from) {
            return ratePerSecond * (to - from) / 1e9 - admitted.between(from, to);
        }
        return -(ratePerSecond * (from - to) / 1e9 - admitted.between(to, from));
    }

    private Moment decide() {
        if (pairs < MIN_PAIRS) {
            return Moment.UNKNOWN;
        }
        int n = (int) Math.min(pairs, WINDOW);
        double admission = 0;
        double middle = 0;
        double answer = 0;
        for (int i = 0; i < n; i++) {
            admission += admissionMisses[i];
            middle += middleMisses[i];
            answer += answerMisses[i];
        }
        if (admission <= DECISIVE * Math.min(answer, middle)) {
            return Moment.ADMISSION;
        }
        if (answer <= DECISIVE * Math.min(admission, middle)) {
            return Moment.ANSWER;
        }
        return Moment.UNKNOWN;
    }

    public Moment moment() {
        return moment;
    }

    /** After a 429: what was learned may be wrong, so it is learned again. */
    public void forget() {
        pairs = 0;
        hasLast = false;
        moment = Moment.UNKNOWN;
    }
}
