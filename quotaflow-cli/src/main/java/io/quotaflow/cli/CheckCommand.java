package io.quotaflow.cli;

import io.quotaflow.admin.ClusterCheck;
import io.quotaflow.admin.KafkaClients;
import io.quotaflow.admin.TopicDifference;
import io.quotaflow.admin.TopicsApplier;
import io.quotaflow.settings.ClusterSettings;
import io.quotaflow.config.ConfigLoader;
import io.quotaflow.config.ConfigValues;
import io.quotaflow.config.QuotaflowConfig;
import io.quotaflow.provider.ProbeLine;
import io.quotaflow.provider.ProbeReport;
import io.quotaflow.provider.ProviderProbe;
import io.quotaflow.settings.RouteSettings;
import org.apache.kafka.clients.admin.Admin;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code quotaflow check}: the cluster, the topics and every route, one line per check, before a deployment. */
@Command(name = "check", sortOptions = false,
        headerHeading = "%n", synopsisHeading = "Usage: ",
        header = "Check the cluster, the topics and every route's provider.",
        descriptionHeading = "%nDescription:%n",
        description = {
            "Reads the same settings as run (--config FILE, QUOTAFLOW_* variables, flags) and prints one line "
                    + "per check, ok, FAIL or skip (could not be told), then exits 1 if any failed:",
            "  cluster         the servers answer (and the kafka.* security settings work)",
            "  topics          every declared topic exists as declared (as `topics diff` says; nothing is changed)",
            "  per route       reachable (else the cause: connection refused, connect timeout, DNS, TLS), key accepted "
                    + "(401/403: key refused), model served (404: model not found, or a base URL without /v1), "
                    + "context window (the provider's when its model list says it, else the configured one), "
                    + "rate limits (the rate-limit headers seen and the limits they announce against the configured rpm and tpm)",
            "",
            "Each route costs one tiny call: GET {base}/models (free), then one chat completion of about ten prompt "
                    + "tokens with max_tokens 1, which is what proves the model answers and carries the rate-limit headers. "
                    + "--no-call makes only the GET: no token is spent, and the rate limits (and, for a provider "
                    + "without a model list, the key and the model) are skipped. run makes the same GET at start.",
            "",
            "Nothing secret is printed: the key never, URLs with their credentials masked, the provider's messages redacted."
        },
        optionListHeading = "%nOptions:%n",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:every check passed (skipped checks do not fail)",
            "1:a check failed (its line says which and why)",
            "2:usage or configuration error"
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  export QUOTAFLOW_LLM_API_KEY=sk-...",
            "  export QUOTAFLOW_BOOTSTRAP_SERVERS=localhost:9092",
            "  quotaflow check --llm-base-url https://api.openai.com/v1 --rpm 500",
            "  quotaflow check --config /etc/quotaflow/quotaflow.properties",
            "  quotaflow check --config routes.properties --no-call"
        })
public final class CheckCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
    boolean help;

    @Mixin
    KafkaConnectionOptions kafka = new KafkaConnectionOptions();

    @Mixin
    LlmOptions llm = new LlmOptions();

    @Option(names = "--no-call", description = "Only GET {base}/models per route: no chat completion, no token spent.")
    boolean noCall;

    @Override
    public Integer call() {
        Map<String, String> flags = new LinkedHashMap<>();
        llm.putInto(flags);
        ConfigValues values = kafka.settings(flags);
        QuotaflowConfig config;
        try {
            config = ConfigLoader.load(values, kafka.environment);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
        PrintWriter out = spec.commandLine().getOut();
        boolean failed = false;
        for (ProbeLine line : cluster(kafka.cluster(), declared(kafka))) {
            failed |= print(out, line);
        }
        try (ProviderProbe probe = new ProviderProbe()) {
            for (RouteSettings route : config.dispatcher().routing().routes().values()) {
                ProbeReport report = probe.check(route, !noCall).join();
                for (ProbeLine line : report.lines()) {
                    failed |= print(out, line);
                }
            }
        }
        return failed ? ExitCodes.FAILURE : ExitCodes.OK;
    }

    private static boolean print(PrintWriter out, ProbeLine line) {
        out.println(line.text());
        out.flush();
        return line.failed();
    }

    /** The topics run applies at start and `topics diff` compares: the bundled ones under the prefix, and the tenants' own. */
    static TopicsApplier declared(KafkaConnectionOptions kafka) {
        return TopicsApplier.bundled().withPrefix(kafka.topics().prefix()).withTenantTopics(kafka.tenants(), kafka.topics());
    }

    /** The cluster's line, then the topics': one per difference from the declarations, or one saying there is none. */
    static List<ProbeLine> cluster(ClusterSettings cluster, TopicsApplier topics) {
        ClusterCheck.Result result = ClusterCheck.check(cluster);
        if (result instanceof ClusterCheck.Unreachable unreachable) {
            return List.of(new ProbeLine(ProbeLine.Verdict.FAIL, "cluster", "reachable", unreachable.reason()),
                    new ProbeLine(ProbeLine.Verdict.SKIP, "topics", "declared", "not checked: the cluster did not answer"));
        }
        ClusterCheck.Reachable reachable = (ClusterCheck.Reachable) result;
        List<ProbeLine> lines = new java.util.ArrayList<>();
        lines.add(new ProbeLine(ProbeLine.Verdict.OK, "cluster", "reachable", "Kafka at " + cluster.bootstrapServers() + " answered: cluster "
                + reachable.clusterId() + ", " + reachable.brokers() + (reachable.brokers() == 1 ? " broker" : " brokers")));
        List<TopicDifference> differences;
        try (Admin admin = KafkaClients.admin(cluster.bootstrapServers(), cluster.kafka())) {
            differences = topics.diff(admin);
        } catch (RuntimeException e) {
            String why = String.valueOf(e.getMessage()).replaceAll("\\s+", " ").strip();
            lines.add(new ProbeLine(ProbeLine.Verdict.FAIL, "topics", "declared", "cannot describe them: " + why));
            return lines;
        }
        for (TopicDifference d : differences) {
            lines.add(d.kind().blocking()
                    ? new ProbeLine(ProbeLine.Verdict.FAIL, "topics", "declared", d.describe() + " (`quotaflow topics apply` fixes it)")
                    : new ProbeLine(ProbeLine.Verdict.OK, "topics", "declared", "note: " + d.describe()));
        }
        if (differences.stream().noneMatch(d -> d.kind().blocking())) {
            lines.add(new ProbeLine(ProbeLine.Verdict.OK, "topics", "declared", "the " + topics.specs().size()
                    + " declared topics exist as declared"));
        }
        return lines;
    }
}
