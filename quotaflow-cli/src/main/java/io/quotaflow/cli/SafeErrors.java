package io.quotaflow.cli;

import io.quotaflow.config.ConfigKeys;
import io.quotaflow.config.ConfigLoader;
import io.quotaflow.settings.Redactor;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.UnmatchedArgumentException;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Keeps secrets out of everything the command line prints on stderr: parse errors never echo the
 * value of an unknown or secret option (only option names are named), execution errors and all other
 * stderr text go through the {@link Redactor} with the values the command line and the environment
 * hold that may be secrets, and {@code -X llm.api-key=…} is refused for every command.
 */
final class SafeErrors implements CommandLine.IParameterExceptionHandler {

    /** How to pass the key, printed whenever a key may have been given the wrong way. */
    static final String HOW_TO_PASS_THE_KEY = "The API key is never given on the command line: set "
            + ConfigLoader.API_KEY_ENV + " in the environment, or put it in a file and pass --llm-api-key-file FILE.";

    private static final Set<String> KAFKA_PROPERTY_OPTIONS = Set.of("-X", "--kafka-property", "--client-property");

    /** An option name safe to print: lower-case words, at most two digits (a pasted key is neither). */
    private static final Pattern OPTION_WORD = Pattern.compile("-{1,2}[A-Za-z](?:[a-z0-9]*)(?:[.-][a-z0-9]+)*");

    /** A stray argument safe to print: a lower-case word (a mistyped subcommand), never a key. */
    private static final Pattern PLAIN_WORD = Pattern.compile("[a-z][a-z-]{0,19}");

    private static final int MIN_SUSPECT = 4;

    /** {@code dlq show --key ID} and {@code dlq replay --key ID}: a ticket's key, never a secret. */
    private static final String TICKET_KEY_OPTION = "--key";

    private final List<String> suspects;
    private final boolean verbose;

    /**
     * @param args    the command line, to find the values that may be secrets (those of secret-named
     *                options and of secret-named {@code -X} properties)
     * @param env     the environment: {@code QUOTAFLOW_LLM_API_KEY} and other secret-named variables
     * @param verbose whether execution errors print their stack trace (redacted too)
     */
    SafeErrors(String[] args, Map<String, String> env, boolean verbose) {
        this.suspects = List.copyOf(suspects(args, env));
        this.verbose = verbose;
    }

    /** {@code text} with every suspect value and anything shaped like a key removed. */
    String clean(String text) {
        if (text == null) {
            return null;
        }
        String out = text;
        for (String s : suspects) {
            // a path (--llm-api-key-file) is only removed whole: its parts are shared with ordinary paths
            out = s.contains("/") || s.contains("\\")
                    ? Pattern.compile(Pattern.quote(s), Pattern.CASE_INSENSITIVE).matcher(out).replaceAll(Redactor.MASK)
                    : Redactor.redact(out, s);
        }
        return Redactor.scrub(out);
    }

    /** A writer that {@link #clean}s everything written through it, a flushed chunk at a time. */
    PrintWriter redacting(PrintWriter target) {
        return new PrintWriter(new RedactingWriter(target), true);
    }

    @Override
    public int handleParseException(ParameterException ex, String[] args) {
        CommandLine cmd = ex.getCommandLine();
        PrintWriter err = cmd.getErr();
        String name = cmd.getCommandSpec().qualifiedName();
        if (ex instanceof UnmatchedArgumentException unmatched) {
            unmatched(unmatched, name, err);
        } else if (ex.getArgSpec() instanceof OptionSpec option && (isKafkaProperty(option) || isSecret(option))) {
            String shown = isKafkaProperty(option) ? option.shortestName() : option.longestName();
            err.println(name + ": invalid value for option '" + shown + "' (value not shown"
                    + (isKafkaProperty(option) ? "; expected KEY=VALUE" : "") + ")");
            if (isSecret(option)) {
                err.println(HOW_TO_PASS_THE_KEY);
            }
        } else {
            err.println(name + ": " + clean(ex.getMessage()));
        }
        err.println("Try '" + name + " --help' for more information.");
        err.flush();
        return cmd.getExitCodeExceptionMapper() != null ? cmd.getExitCodeExceptionMapper().getExitCode(ex)
                : cmd.getCommandSpec().exitCodeOnInvalidInput();
    }

    /** Execution errors: an {@link IllegalArgumentException} is a usage error (exit 2), anything else exit 1. */
    int handleExecutionException(Exception ex, CommandLine cmd, ParseResult parseResult) {
        PrintWriter err = cmd.getErr();
        if (ex instanceof IllegalArgumentException) {
            err.println("quotaflow: " + clean(ex.getMessage()));
            err.flush();
            return ExitCodes.USAGE;
        }
        err.println("quotaflow: " + clean(ex.toString()));
        if (verbose) {
            StringWriter trace = new StringWriter();
            ex.printStackTrace(new PrintWriter(trace, true));
            err.print(clean(trace.toString()));
        } else {
            err.println("(run with --verbose for details)");
        }
        err.flush();
        return ExitCodes.FAILURE;
    }

    /**
     * Refuses an {@code -X} property that would carry the API key ({@code -X llm.api-key=…}) for any
     * command, before it runs; names the key, never the value.
     */
    static void refuseApiKeyProperties(ParseResult parseResult) {
        for (ParseResult r = parseResult; r != null; r = r.hasSubcommand() ? r.subcommand() : null) {
            for (OptionSpec option : r.matchedOptions()) {
                if (isKafkaProperty(option) && option.getValue() instanceof Map<?, ?> properties) {
                    for (Object key : properties.keySet()) {
                        String k = String.valueOf(key);
                        if (ConfigLoader.isApiKeyName(k) || ConfigLoader.isApiKeyName("kafka." + k)) {
                            throw new ParameterException(r.commandSpec().commandLine(),
                                    "'-X " + Redactor.scrub(k.strip()) + "' is refused: " + ConfigLoader.API_KEY_WAY);
                        }
                    }
                }
            }
        }
    }

    /** Names the unknown options (cut at {@code =}), never the values after them nor a stray argument. */
    /** The commands of the developer distribution only ({@code ./quotaflow}: an in-process broker and the simulator). */
    static final List<String> DEV_COMMANDS = List.of("demo", "bench", "sim", "broker");

    /**
     * Where a developer command is, when {@code words} start with one this command line lacks (the production
     * jar): {@code demo, bench, sim and broker are in the developer distribution: ./quotaflow demo ...}.
     */
    static java.util.Optional<String> devOnly(List<String> words, CommandLine cmd) {
        if (words.isEmpty() || cmd.getParent() != null || !DEV_COMMANDS.contains(words.get(0))
                || cmd.getSubcommands().containsKey(words.get(0))) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of("unknown command '" + words.get(0) + "': demo, bench, sim and broker are in the developer "
                + "distribution, not in the production jar: ./quotaflow " + words.get(0) + " in a checkout of the repository "
                + "(README, \"Commands\")");
    }

    private void unmatched(UnmatchedArgumentException ex, String name, PrintWriter err) {
        Set<String> options = new LinkedHashSet<>();
        List<String> words = new ArrayList<>();
        int hidden = 0;
        boolean keyLike = false;
        boolean afterOption = false;
        for (String arg : ex.getUnmatched()) {
            if (arg.length() > 1 && arg.startsWith("-")) {
                int eq = arg.indexOf('=');
                String option = eq > 0 ? arg.substring(0, eq) : arg;
                if (eq > 0) {
                    hidden++;
                    keyLike |= looksLikeASecret(arg.substring(eq + 1));
                }
                if (printable(option, OPTION_WORD) && option.chars().filter(Character::isDigit).count() <= 2) {
                    options.add(option);
                    keyLike |= Redactor.isSecretName(option);
                } else {
                    hidden++;
                    keyLike |= looksLikeASecret(option);
                }
                afterOption = true;
            } else if (!afterOption && printable(arg, PLAIN_WORD)) {
                words.add(arg);
            } else {
                hidden++;
                keyLike |= looksLikeASecret(arg);
            }
        }
        List<String> parts = new ArrayList<>();
        if (!options.isEmpty()) {
            parts.add((options.size() == 1 ? "unknown option " : "unknown options ") + quoted(options));
        }
        if (!words.isEmpty()) {
            parts.add((words.size() == 1 ? "unexpected argument " : "unexpected arguments ") + quoted(words));
        }
        if (hidden > 0) {
            String what = hidden == 1 ? "1 value" : hidden + " values";
            parts.add(parts.isEmpty() ? "unexpected argument (" + what + " not shown: it may be a secret)"
                    : "(" + what + " not shown)");
        }
        java.util.Optional<String> devOnly = devOnly(words, ex.getCommandLine());
        if (devOnly.isPresent()) {
            err.println(name + ": " + devOnly.get());
            return;
        }
        err.println(name + ": " + String.join(" ", parts));
        if (keyLike) {
            err.println(HOW_TO_PASS_THE_KEY);
        }
        List<String> suggestions = new ArrayList<>(ex.getSuggestions().stream()
                .filter(s -> printable(s, OPTION_WORD) || printable(s, PLAIN_WORD)).toList());
        if (suggestions.isEmpty()) {
            // picocli suggests by prefix; a transposition (--rmp for --rpm) needs the edit distance
            Set<String> known = ex.getCommandLine().getCommandSpec().optionsMap().keySet();
            options.forEach(o -> ConfigKeys.closest(o, known).ifPresent(suggestions::add));
        }
        if (!suggestions.isEmpty()) {
            err.println("Did you mean: " + String.join(", ", suggestions) + "?");
        }
    }

    private boolean printable(String word, Pattern shape) {
        return word.length() <= 40 && shape.matcher(word).matches() && clean(word).equals(word);
    }

    private boolean looksLikeASecret(String value) {
        boolean letters = value.chars().anyMatch(Character::isLetter);
        boolean digits = value.chars().anyMatch(Character::isDigit);
        return !clean(value).equals(value) || (value.length() >= 16 && letters && digits && value.chars().noneMatch(Character::isWhitespace));
    }

    private static String quoted(Iterable<String> values) {
        List<String> q = new ArrayList<>();
        values.forEach(v -> q.add("'" + v + "'"));
        return String.join(", ", q);
    }

    private static boolean isKafkaProperty(OptionSpec option) {
        for (String n : option.names()) {
            if (KAFKA_PROPERTY_OPTIONS.contains(n)) {
                return true;
            }
        }
        return false;
    }

    private static boolean isSecret(OptionSpec option) {
        for (String n : option.names()) {
            if (Redactor.isSecretName(n)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Values that may be secrets: the environment's API key and secret-named {@code QUOTAFLOW_*}
     * variables, the values of secret-named options ({@code --llm-api-key-file X},
     * {@code --llm-api-key=X}) and of secret-named or malformed {@code -X} properties.
     */
    static List<String> suspects(String[] args, Map<String, String> env) {
        Set<String> out = new LinkedHashSet<>();
        env.forEach((name, value) -> {
            if (value != null && name.startsWith("QUOTAFLOW_") && Redactor.isSecretName(name) && !namesAVariable(name, value)) {
                add(out, value);
                for (String part : value.split("[,\\s]+")) {
                    add(out, part);
                }
            }
        });
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (arg.length() < 2 || !arg.startsWith("-")) {
                continue;
            }
            String next = i + 1 < args.length && !args[i + 1].startsWith("-") ? args[i + 1] : null;
            int eq = arg.indexOf('=');
            String name = eq > 0 ? arg.substring(0, eq) : arg;
            String attached = eq > 0 ? arg.substring(eq + 1) : null;
            String property = null;
            if (KAFKA_PROPERTY_OPTIONS.contains(name)) {
                property = attached != null ? attached : next;
            } else if (arg.startsWith("-X") && arg.length() > 2) {
                property = arg.substring(2);
            } else if (Redactor.isSecretName(name) && !(name.equals(TICKET_KEY_OPTION) && namesTicketKeys(args))) {
                add(out, attached != null ? attached : next);
            }
            if (property != null) {
                int peq = property.indexOf('=');
                if (peq < 0) {
                    add(out, property);
                } else if (Redactor.isSecretName(property.substring(0, peq)) || ConfigLoader.isApiKeyName(property.substring(0, peq))) {
                    add(out, property.substring(peq + 1));
                }
            }
        }
        return new ArrayList<>(out);
    }

    /** Whether {@code args} run {@code dlq show} or {@code dlq replay}, whose {@code --key} is a ticket's key. */
    private static boolean namesTicketKeys(String[] args) {
        return args.length > 1 && args[0].equals("dlq") && (args[1].equals("show") || args[1].equals("replay"));
    }

    /**
     * {@code QUOTAFLOW_ROUTE_<NAME>_API_KEY_ENV=OPENAI_API_KEY} holds the name of the variable with
     * the key, not a key: errors name it. Anything else in it stays a suspect.
     */
    private static boolean namesAVariable(String name, String value) {
        return name.endsWith("_API_KEY_ENV") && value.strip().matches("[A-Z_][A-Z0-9_]*");
    }

    private static void add(Set<String> out, String value) {
        if (value != null && value.strip().length() >= MIN_SUSPECT) {
            out.add(value.strip());
        }
    }

    /** Buffers until flushed (a {@code println} with auto-flush), then writes the chunk cleaned. */
    private final class RedactingWriter extends Writer {

        private static final int MAX_BUFFER = 64 * 1024;

        private final PrintWriter target;
        private final StringBuilder buffer = new StringBuilder();

        RedactingWriter(PrintWriter target) {
            this.target = target;
        }

        @Override
        public void write(char[] chars, int offset, int length) {
            synchronized (lock) {
                buffer.append(chars, offset, length);
                if (buffer.length() > MAX_BUFFER) {
                    drain();
                }
            }
        }

        @Override
        public void flush() {
            synchronized (lock) {
                drain();
                target.flush();
            }
        }

        @Override
        public void close() throws IOException {
            flush();
        }

        private void drain() {
            if (!buffer.isEmpty()) {
                target.write(clean(buffer.toString()));
                buffer.setLength(0);
            }
        }
    }
}
