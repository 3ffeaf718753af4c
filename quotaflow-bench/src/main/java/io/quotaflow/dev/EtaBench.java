package io.quotaflow.dev;

import io.quotaflow.cli.ExitCodes;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;

/** {@code quotaflow bench --scenario m}: its option (a mixin of {@link BenchCommand}) and its run on each provider shape. */
final class EtaBench {

    @Option(names = "--eta-providers", paramLabel = "LIST", defaultValue = "ours,slow,input",
            description = "With --scenario m: the provider shapes served by, in turn (ours: counts as the client does, 3k RPM, 400k "
                    + "TPM; slow: (w)'s provider, cl100k_base, ~2 s calls, 200k TPM; input: slow, its TPM counting the prompt only; default: "
                    + "${DEFAULT-VALUE}).")
    String etaProviders;

    /**
     * Bench (m), run alone: ETA accuracy 60 s into a bulk backlog, on each provider shape of
     * {@code --eta-providers} in turn (exit 1 when a median error misses its target).
     */
    int run(BenchCommand bench) throws Exception {
        PrintWriter err = bench.spec.commandLine().getErr();
        boolean met = true;
        StringBuilder reports = new StringBuilder();
        List<Object> results = new java.util.ArrayList<>();
        for (var provider : providerList(etaProviders)) {
            var options = io.quotaflow.bench.EtaAccuracyBenchmark.Options.defaults(bench.seed).withProvider(provider);
            if (bench.tickets != null) {
                options = options.withTickets(bench.tickets);
            }
            var result = new io.quotaflow.bench.EtaAccuracyBenchmark(options, m -> {
                err.println("[m eta-accuracy] " + m);
                err.flush();
            }).run();
            bench.spec.commandLine().getOut().print(result.report());
            bench.spec.commandLine().getOut().flush();
            met &= result.metTarget();
            reports.append(result.report());
            results.add(result);
        }
        AloneBenches.writeFiles(bench, "m", reports.toString(), results, met);
        return met ? ExitCodes.OK : ExitCodes.FAILURE;
    }

    /** {@code ours,slow,input}: the providers of bench (m), in the order named. */
    static List<io.quotaflow.bench.EtaAccuracyBenchmark.Provider> providerList(String names) {
        List<io.quotaflow.bench.EtaAccuracyBenchmark.Provider> out = new java.util.ArrayList<>();
        for (String name : names.split(",")) {
            switch (name.strip().toLowerCase(Locale.ROOT)) {
                case "ours" -> out.add(io.quotaflow.bench.EtaAccuracyBenchmark.Provider.ours());
                case "slow" -> out.add(io.quotaflow.bench.EtaAccuracyBenchmark.Provider.slow());
                case "input" -> out.add(io.quotaflow.bench.EtaAccuracyBenchmark.Provider.input());
                default -> throw new IllegalArgumentException("--eta-providers: unknown provider '" + name.strip() + "' (ours, slow, input)");
            }
        }
        return out;
    }
}
