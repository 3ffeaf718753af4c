package io.quotaflow.dev;

import io.quotaflow.simulator.HeaderMoment;
import io.quotaflow.simulator.ModelSpec;
import io.quotaflow.simulator.ModelStats;
import io.quotaflow.simulator.Outage;
import io.quotaflow.simulator.SimTokenizer;
import io.quotaflow.simulator.SimulatorConfig;
import io.quotaflow.simulator.SimulatorStats;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/** What {@code quotaflow sim} prints when it starts and stops, and the check that every outage names a served model. */
final class SimBanner {

    private SimBanner() {
    }

    /**
     * {@code Provider simulator listening on http://localhost:8089/v1 (RPM 500, TPM 200000, burst 5s,
     * tokenizer o200k_base, context 128000)}, with {@code , buckets start empty} when they do, then
     * {@code   also serving gpt-4o (RPM ..., ...)} for every other model.
     */
    static String banner(SimulatorConfig config, String baseUrl) {
        String start = (config.startFull() ? "" : config.startLevel() == 0 ? ", buckets start empty"
                : ", buckets start at " + plain(config.startLevel()))
                + (config.headersAt() == HeaderMoment.ANSWER ? ", headers taken at the answer" : "");
        StringBuilder out = new StringBuilder("Provider simulator listening on " + baseUrl + " ("
                + config.engine().map(e -> "a self-hosted engine: no rate limits, saturating at " + e.saturation()
                        + " running calls, refusing beyond " + e.maxRunning() + " with " + e.refusalStatus())
                        .orElseGet(() -> shape(config.defaultModel(), start)) + ")");
        for (ModelSpec extra : config.extraModels()) {
            out.append(System.lineSeparator()).append("  also serving ").append(extra.name()).append(" (")
                    .append(shape(extra, "")).append(extra.apiKeys().isEmpty() ? "" : ", " + extra.apiKeys().size()
                            + " key(s) of its own").append(')');
        }
        return out.toString();
    }

    private static String shape(ModelSpec model, String start) {
        SimTokenizer modelsOwn = SimTokenizer.AUTO.resolve(model.name());
        String tokenizer = model.resolvedTokenizer().id()
                + (model.resolvedTokenizer() == modelsOwn ? "" : " (the model's is " + modelsOwn.id() + ")");
        return "RPM " + model.rpm() + ", TPM " + model.tpm() + ", burst " + plain(model.burstSeconds()) + "s" + start
                + ", tokenizer " + tokenizer + ", context " + model.contextTokens();
    }

    /**
     * {@code Provider simulator stopped: 12 requests, 10 admitted, 2 answered 429.}, and with several
     * models {@code  By model: gpt-4o-mini 8 requests, 7 admitted, 1 answered 429; gpt-4o ...}.
     */
    static String stoppedLine(SimulatorStats stats) {
        long faults = stats.faultsInjected().values().stream().mapToLong(Long::longValue).sum();
        String line = "Provider simulator stopped: " + stats.totalRequests() + " requests, "
                + stats.requestsAdmitted() + " admitted, " + stats.http429() + " answered 429"
                + (stats.contextLengthRefusals() == 0 ? ""
                        : ", " + stats.contextLengthRefusals() + " refused 400 context_length_exceeded")
                + (faults == 0 ? "." : ", " + faults + " faults injected " + stats.faultsInjected() + ".");
        if (stats.models().size() <= 1) {
            return line;
        }
        List<String> parts = new ArrayList<>();
        for (ModelStats m : stats.models().values()) {
            parts.add(m.model() + " " + m.requests() + " requests, " + m.requestsAdmitted() + " admitted, " + m.http429()
                    + " answered 429, " + m.http400() + " answered 400, " + (m.promptTokens() + m.completionTokens())
                    + " tokens used");
        }
        return line + " By model: " + String.join("; ", parts) + ".";
    }

    /**
     * {@code config} when every outage window names a served model (or none).
     *
     * @throws IllegalArgumentException naming the window's model and the models served
     */
    static SimulatorConfig checkOutageModels(SimulatorConfig config) {
        for (Outage outage : config.faults().outages()) {
            if (outage.model().isPresent() && config.servedModel(outage.model().get()).isEmpty()) {
                throw new IllegalArgumentException("--outage " + outage + " names model " + outage.model().get()
                        + ", which is not served; served: " + config.models().stream().map(ModelSpec::name).toList());
            }
        }
        return config;
    }

    private static String plain(double value) {
        return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
    }
}
