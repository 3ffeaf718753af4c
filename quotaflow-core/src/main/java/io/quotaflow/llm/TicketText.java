package io.quotaflow.llm;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A ticket's text without what carries no signal for its category or urgency (docs/design.md,
 * "Lean prompts"): the opening greeting, the closing sign-off and the name under it (or everything
 * under a {@code -- } signature delimiter), quoted earlier messages ({@code > } lines, an
 * {@code On ... wrote:} or {@code ----- Original message -----} header and the mail headers under it),
 * a mail client's {@code Sent from my ...} line,
 * repeated whitespace and blank lines, and the middle of a long pasted log or listing: a run of more
 * than {@value #LOG_KEEP_HEAD} + {@value #LOG_KEEP_TAIL} log-like lines keeps its first
 * {@value #LOG_KEEP_HEAD} and last {@value #LOG_KEEP_TAIL}, with one {@code [N similar lines left out]}
 * line between them.
 *
 * <p>Conservative by design: a line is only dropped when it is wholly a greeting, a sign-off, a
 * short name line after a sign-off, quoted, or in the middle of a log run; the sentences around are
 * kept word for word. A text that would come out empty is returned with its whitespace collapsed only.
 * English and Portuguese (the languages of the bundled tickets), plus common Spanish, French and
 * German forms. Pure and stateless.
 */
public final class TicketText {

    /** Log lines kept at the head of a long run. */
    static final int LOG_KEEP_HEAD = 3;
    /** Log lines kept at the tail of a long run. */
    static final int LOG_KEEP_TAIL = 2;
    /** Longest line taken for a greeting, a sign-off or a name under it. */
    private static final int SHORT_LINE = 40;
    /** Most lines under a sign-off (a name, a role, a company, a phone number). */
    private static final int SIGNATURE_LINES = 4;

    private static final Pattern GREETING = Pattern.compile(
            "^(hi|hello|hey|dear|greetings|to whom it may concern|a quem possa interessar|good (morning|afternoon|evening|day)"
                    + "|ol[aá]|oi|bom dia|boa tarde|boa noite|prezad[oa]s?"
                    + "|car[oa]s?|hola|buenos d[ií]as|buenas tardes|estimad[oa]s?|bonjour|guten tag|hallo)"
                    // alone (maybe with ",", ":" or "!"), or with up to three words (a name, "team", "there") and a closing "," or ":"
                    + "(\\s*[,:!]?|(\\s*,?\\s*[\\p{L}'.-]+){1,3}\\s*[,:])$",
            Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);
    private static final Pattern SIGN_OFF = Pattern.compile(
            "^(thanks|thank you|many thanks|thanks in advance|kind regards|best regards|regards|best|cheers|sincerely|yours|"
                    + "obrigad[oa]|muito obrigad[oa]|atenciosamente|abra[cç]os?|att|grat[oa]|aguardo( o)? retorno|cordialmente|"
                    + "saludos|gracias|cordialement|merci|mit freundlichen gr[uü](ß|ss)en|viele gr[uü](ß|ss)e)[ ,.!]*$",
            Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);
    private static final Pattern QUOTE_HEADER = Pattern.compile(
            "^(-{2,}\\s*(original message|mensagem original|mensaje original|message d'origine|urspr[uü]ngliche nachricht)\\s*-{2,}"
                    + "|(on|em|el|le|am) .{4,200}(wrote|escreveu|escribi[oó]|a [ée]crit|schrieb)\\s*:)$",
            Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);
    private static final Pattern MAIL_HEADER = Pattern.compile(
            "^(from|sent|to|cc|subject|date|de|enviad[oa]|para|assunto|data|von|an|betreff|objet|envoy[ée]|asunto|fecha):\\s.*$",
            Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);
    private static final Pattern SENT_FROM = Pattern.compile("^(sent from my|enviado do meu|enviado desde mi|envoy[ée] de mon) .{1,40}$",
            Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);
    /** A line of a pasted log or listing: a date, a time, a level, a stack frame. */
    private static final Pattern LOG_LINE = Pattern.compile(
            "^(\\[?\\d{4}[-/.]\\d{1,2}[-/.]\\d{1,2}|\\[?\\d{1,2}[-/.]\\d{1,2}[-/.]\\d{2,4}\\b|\\[?\\d{1,2}:\\d{2}(:\\d{2})?\\b"
                    + "|(trace|debug|info|warn|warning|error|fatal)\\b|at [\\w$.<>]+\\(|caused by:|\\.\\.\\. \\d+ more)",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern LINE_BREAK = Pattern.compile("\\R");
    private static final Pattern WHITESPACE = Pattern.compile("\\s+");

    private TicketText() {
    }

    /** {@code text} without what carries no signal, without the heavy tail's cuts; null stays null. */
    public static String lean(String text) {
        return lean(text, Set.of());
    }

    /** {@code text} without what carries no signal and without what each of {@code cuts} takes ({@link TicketTail}); null stays null. */
    public static String lean(String text, Set<TicketTail.Cut> cuts) {
        if (text == null || text.isEmpty()) {
            return text;
        }
        String[] raw = LINE_BREAK.split(text, -1);
        List<String> lines = new ArrayList<>(raw.length);
        for (String line : raw) {
            lines.add(collapseSpaces(line));
        }
        StringBuilder out = joined(cleaned(lines, cuts), text.length());
        if (out.length() == 0) {
            return collapseSpaces(WHITESPACE.matcher(text).replaceAll(" "));
        }
        return out.toString();
    }

    /** {@code lines} without what the basic clean-up and each of {@code cuts} take. */
    private static List<String> cleaned(List<String> lines, Set<TicketTail.Cut> cuts) {
        List<String> kept = cuts.contains(TicketTail.Cut.THREAD) ? TicketTail.withoutThread(lines) : lines;
        kept = withoutQuotes(kept);
        if (cuts.contains(TicketTail.Cut.DISCLAIMER)) {
            kept = TicketTail.withoutDisclaimers(kept);
        }
        kept = withoutSignature(kept);
        if (cuts.contains(TicketTail.Cut.CONTACTS)) {
            kept = withoutSignature(TicketTail.withoutContactBlock(kept));
        }
        kept = withoutGreeting(kept);
        kept = cuts.contains(TicketTail.Cut.LOGS)
                ? TicketTail.runsCut(kept, l -> isLog(l) || TicketTail.isMoreLog(l), TicketTail.LOG_KEEP_HEAD, TicketTail.LOG_KEEP_TAIL, "lines")
                : TicketTail.runsCut(kept, TicketText::isLog, LOG_KEEP_HEAD, LOG_KEEP_TAIL, "lines");
        if (cuts.contains(TicketTail.Cut.TABLES)) {
            kept = TicketTail.runsCut(kept, TicketTail::isTableRow, TicketTail.TABLE_KEEP_HEAD, TicketTail.TABLE_KEEP_TAIL, "rows");
        }
        return kept;
    }

    /** The non-empty lines of {@code kept}, one per line. */
    private static StringBuilder joined(List<String> kept, int capacity) {
        StringBuilder out = new StringBuilder(capacity);
        for (String line : kept) {
            if (!line.isEmpty()) {
                if (out.length() > 0) {
                    out.append('\n');
                }
                out.append(line);
            }
        }
        return out;
    }

    /** Quoted lines, quote headers and the mail headers right under one. */
    private static List<String> withoutQuotes(List<String> lines) {
        List<String> out = new ArrayList<>(lines.size());
        boolean afterHeader = false;
        for (String line : lines) {
            if (SENT_FROM.matcher(line).matches()) {
                continue;
            }
            if (line.startsWith(">") || QUOTE_HEADER.matcher(line).matches()) {
                afterHeader = !line.startsWith(">");
                continue;
            }
            if (afterHeader && MAIL_HEADER.matcher(line).matches()) {
                continue;
            }
            afterHeader = false;
            out.add(line);
        }
        return out;
    }

    /** From the last sign-off (followed only by short lines) or a {@code -- } delimiter to the end. */
    private static List<String> withoutSignature(List<String> lines) {
        int end = lines.size();
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).equals("--")) {
                end = i;
                break;
            }
        }
        int nonEmptyAfter = 0;
        for (int i = end - 1; i >= 0 && nonEmptyAfter <= SIGNATURE_LINES; i--) {
            String line = lines.get(i);
            if (line.isEmpty()) {
                continue;
            }
            if (line.length() <= SHORT_LINE && SIGN_OFF.matcher(line).matches()) {
                return lines.subList(0, i);
            }
            if (line.length() > SHORT_LINE) {
                break;
            }
            nonEmptyAfter++;
        }
        return lines.subList(0, end);
    }

    /** The first non-empty line when it is wholly a greeting. */
    private static List<String> withoutGreeting(List<String> lines) {
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.isEmpty()) {
                continue;
            }
            if (line.length() <= SHORT_LINE && GREETING.matcher(line).matches()) {
                return lines.subList(i + 1, lines.size());
            }
            return lines;
        }
        return lines;
    }

    static boolean isLog(String line) {
        return !line.isEmpty() && LOG_LINE.matcher(line).lookingAt();
    }

    /** Whether {@code c} is a space {@link #lean} collapses: a space, a tab, a no-break space, U+2000 to U+200B, or U+3000. */
    private static boolean isSpace(char c) {
        return c == ' ' || c == '\t' || c == '\u00A0' || c >= '\u2000' && c <= '\u200B' || c == '\u3000';
    }

    /**
     * {@code line} with each run of {@link #isSpace spaces} made one space, then stripped; by hand
     * rather than with a regular expression, since it runs on the stream thread for every line of
     * every ticket a prompt carries: no matcher, and no copy when there is nothing to collapse.
     */
    static String collapseSpaces(String line) {
        int n = line.length();
        StringBuilder out = null;
        int i = 0;
        while (i < n) {
            char c = line.charAt(i);
            if (!isSpace(c)) {
                if (out != null) {
                    out.append(c);
                }
                i++;
                continue;
            }
            int end = i + 1;
            while (end < n && isSpace(line.charAt(end))) {
                end++;
            }
            if (out == null && (c != ' ' || end - i > 1)) {
                out = new StringBuilder(n).append(line, 0, i);
            }
            if (out != null) {
                out.append(' ');
            }
            i = end;
        }
        return (out == null ? line : out.toString()).strip();
    }
}
