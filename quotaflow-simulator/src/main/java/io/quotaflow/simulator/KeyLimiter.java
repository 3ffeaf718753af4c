package io.quotaflow.simulator;

import io.quotaflow.duration.GoDuration;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The two buckets (RPM and TPM) of one API key on one model, checked and debited together under the
 * limiter's lock. They start at {@link SimulatorConfig#startLevel()} of their capacity (full by
 * default) when the limiter is made, that is when the key's first authenticated request for the
 * model arrives. Time comes from the injected monotonic clock only.
 */
final class KeyLimiter {

    private final ModelSpec model;
    private final SimBucket requests;
    private final SimBucket tokens;

    /** The buckets of the default model of {@code config}. */
    KeyLimiter(SimulatorConfig config, LongSupplier nanoClock) {
        this(config.defaultModel(), config.startLevel(), nanoClock);
    }

    KeyLimiter(ModelSpec model, double startLevel, LongSupplier nanoClock) {
        this.model = model;
        this.requests = new SimBucket(model.rpm(), model.burstSeconds(), startLevel, nanoClock);
        this.tokens = new SimBucket(model.tpm(), model.burstSeconds(), startLevel, nanoClock);
    }

    /** The headers of an answer that charges nothing (400, 404): the buckets as they are. */
    synchronized Map<String, String> snapshot() {
        return headers();
    }

    /**
     * Admits a request costing {@code cost} tokens (prompt estimate + max_tokens) and one request,
     * debiting both buckets, or says why not.
     */
    synchronized Admission admit(long cost) {
        if (cost > model.tpm()) {
            return new Admission.TooLarge(headers());
        }
        boolean requestOk = requests.canTake(1);
        boolean tokensOk = tokens.canTake(cost);
        if (requestOk && tokensOk) {
            // Debit the estimate (prompt + max_tokens) now and never refund the unused part of
            // max_tokens afterwards: OpenAI does not refund either, which is why a tight
            // max_tokens is throughput.
            requests.tryTake(1);
            tokens.tryTake(cost);
            return new Admission.Admitted(headers());
        }
        Map<String, String> headers = headers();
        Duration requestWait = requests.timeUntilAvailable(1);
        Duration tokenWait = tokens.timeUntilAvailable(cost);
        boolean byRequests = !requestOk && (tokensOk || requestWait.compareTo(tokenWait) >= 0);
        // "Used" is what the message's reader can reconcile with the headers sent alongside:
        // limit − x-ratelimit-remaining-* of this very answer.
        long used = byRequests
                ? model.rpm() - Long.parseLong(headers.get("x-ratelimit-remaining-requests"))
                : model.tpm() - Long.parseLong(headers.get("x-ratelimit-remaining-tokens"));
        Duration wait = requestWait.compareTo(tokenWait) >= 0 ? requestWait : tokenWait;
        return new Admission.Limited(byRequests ? "requests" : "tokens", used, wait, headers);
    }

    /** {@code d} rounded up to a whole millisecond. */
    static Duration ceilToMillis(Duration d) {
        Duration floor = Duration.ofMillis(d.toMillis());
        return floor.equals(d) ? d : floor.plusMillis(1);
    }

    /**
     * The six x-ratelimit-* headers: the configured per-minute limits, the buckets' levels now
     * (after this request's debit, if any) and the time until each is full again.
     */
    private Map<String, String> headers() {
        Map<String, String> h = new LinkedHashMap<>();
        h.put("x-ratelimit-limit-requests", Long.toString(model.rpm()));
        h.put("x-ratelimit-limit-tokens", Long.toString(model.tpm()));
        h.put("x-ratelimit-remaining-requests", Long.toString(requests.remaining()));
        h.put("x-ratelimit-remaining-tokens", Long.toString(tokens.remaining()));
        h.put("x-ratelimit-reset-requests", GoDuration.format(ceilToMillis(requests.timeUntilFull())));
        h.put("x-ratelimit-reset-tokens", GoDuration.format(ceilToMillis(tokens.timeUntilFull())));
        return h;
    }
}
