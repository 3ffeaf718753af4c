package io.quotaflow.llm;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * The heavy tail of real tickets that {@link TicketText}'s basic clean-up keeps (docs/design.md,
 * "Lean prompts"): each {@link Cut} a lever of its own, measured by {@code quotaflow bench --scenario lean}.
 * Works on a ticket's lines with their spaces already collapsed; pure and stateless.
 */
public final class TicketTail {

    /** One cut of the heavy tail. */
    public enum Cut {
        /**
         * A quoted earlier message not marked with {@code >} (a top-posted reply): everything from its
         * header ({@code On ... wrote:}, also wrapped over two lines; {@code ----- Original message -----};
         * a {@code From:} line followed by {@code Sent:}/{@code Date:}, {@code To:} or {@code Subject:})
         * to the end, unless the reply above it has fewer than {@value #NUDGE_WORDS} words ("any
         * update on this?", not counting a disclaimer, a contact block or pasted log and table lines):
         * then the quoted messages are what the ticket is about, and only their headers go. A header
         * followed by {@code >} lines is left to {@link TicketText}'s clean-up of marked quotes.
         */
        THREAD,
        /** A confidentiality notice or disclaimer paragraph, up to the next blank line. */
        DISCLAIMER,
        /**
         * A signature without a sign-off: the last lines of the ticket when they are contact lines
         * (a phone number, a web or mail address, {@code Tel:}, {@code Mobile:}) and the short lines
         * just above them (a name, a role, a company), at most {@value #CONTACT_BLOCK} lines, none of
         * them a sentence (ending in {@code .}, {@code !} or {@code ?}), a log line or a table row.
         */
        CONTACTS,
        /**
         * Long tables: a run of more than {@value #TABLE_KEEP_HEAD} + {@value #TABLE_KEEP_TAIL} + 1
         * table rows ({@code |}-separated, tab- or comma-separated with three fields or more) keeps its
         * first {@value #TABLE_KEEP_HEAD} and last {@value #TABLE_KEEP_TAIL} with
         * {@code [N similar rows left out]} between.
         */
        TABLES,
        /**
         * More log shapes (JSON and {@code key=value} log lines, Python tracebacks, access logs,
         * glog's {@code E1207 10:00:00}) cut like {@link TicketText}'s logs, and every long log run cut
         * to its first {@value #LOG_KEEP_HEAD} and last {@value #LOG_KEEP_TAIL} lines.
         */
        LOGS
    }

    static final int NUDGE_WORDS = 12;
    static final int CONTACT_BLOCK = 8;
    static final int TABLE_KEEP_HEAD = 2;
    static final int TABLE_KEEP_TAIL = 1;
    static final int LOG_KEEP_HEAD = 2;
    static final int LOG_KEEP_TAIL = 1;
    private static final int SHORT_LINE = 60;

    private static final Pattern WROTE_START = Pattern.compile("^(on|em|el|le|am) .{4,200}$", Pattern.CASE_INSENSITIVE);
    private static final Pattern WROTE_END = Pattern.compile("^.{0,120}(wrote|escreveu|escribi[oó]|a [ée]crit|schrieb)\\s*:$",
            Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);
    private static final Pattern ORIGINAL = Pattern.compile(
            "^-{2,}\\s*(original message|forwarded message|mensagem original|mensagem encaminhada|mensaje original"
                    + "|message d'origine|urspr[uü]ngliche nachricht)\\s*-{2,}$",
            Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);
    private static final Pattern FROM = Pattern.compile("^\\*?(from|de|von)\\s*:\\*?\\s.*$", Pattern.CASE_INSENSITIVE);
    private static final Pattern HEADER_NEXT = Pattern.compile("^\\*?(sent|date|to|subject|enviad[oa]|data|para|assunto|gesendet|an|betreff)"
            + "\\s*:\\*?\\s.*$", Pattern.CASE_INSENSITIVE);
    private static final Pattern DISCLAIMER = Pattern.compile(
            "^(confidentiality notice|confidential|disclaimer|aviso de confidencialidade|aviso legal|important notice"
                    + "|this (e-?mail|message|communication)( and any (attachments?|files?)( to it)?| \\(including any attachments\\))? "
                    + "(is|are|may be|contains?) (confidential|intended|privileged)"
                    + "|the information (contained )?in this (e-?mail|message|communication)"
                    + "|esta mensagem( e seus anexos)? (é|pode|cont[eé]m)|please consider the environment before printing)",
            Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);
    private static final Pattern CONTACT = Pattern.compile(
            "(\\+?\\d[\\d ().-]{7,}\\d|https?://\\S+|www\\.\\S+|\\S+@\\S+\\.\\w+|^(tel|phone|mobile|cell|fax|telefone|celular|m|t|p)\\s*[.:])",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern SENTENCE_END = Pattern.compile("[.!?]$");
    private static final Pattern MORE_LOGS = Pattern.compile(
            "^(\\{\\s*\"(ts|time|timestamp|@timestamp|level|lvl|severity|msg|message|t)\"\\s*:"
                    + "|(ts|time|level|lvl)=\\S+\\s+\\S+="
                    + "|traceback \\(most recent call last\\):|file \".+\", line \\d+|[a-z][\\w.$]*(error|exception)(: |$)"
                    + "|\\d{1,3}(\\.\\d{1,3}){3} - \\S+ \\[|[IWEF]\\d{4} \\d{2}:\\d{2}:\\d{2}|#\\d+ 0x[0-9a-f]+|at .+:\\d+:\\d+\\)?$)",
            Pattern.CASE_INSENSITIVE);

    private TicketTail() {
    }

    /** {@code lines} without a top-posted reply's quoted thread (or, for a nudge, without its header only). */
    static List<String> withoutThread(List<String> lines) {
        for (int i = 0; i < lines.size(); i++) {
            int header = headerLength(lines, i);
            if (header == 0 || markedBelow(lines, i + header)) {
                continue;
            }
            if (replyWords(lines.subList(0, i)) >= NUDGE_WORDS) {
                return lines.subList(0, i);
            }
            return withoutHeaders(lines, i);
        }
        return lines;
    }

    /** A nudge's thread: every quote header from {@code from} on goes, the quoted messages stay. */
    private static List<String> withoutHeaders(List<String> lines, int from) {
        List<String> out = new ArrayList<>(lines.subList(0, from));
        int i = from;
        while (i < lines.size()) {
            int header = headerLength(lines, i);
            if (header == 0) {
                out.add(lines.get(i));
                i++;
            } else {
                i += header;
            }
        }
        return out;
    }

    /** Whether the first non-empty line from {@code from} is marked with {@code >}: the base clean-up's quote, not a top-posted thread. */
    private static boolean markedBelow(List<String> lines, int from) {
        for (String line : lines.subList(from, lines.size())) {
            if (!line.isEmpty()) {
                return line.startsWith(">");
            }
        }
        return false;
    }

    /** Words of the reply above a quoted thread, leaving out its disclaimers, its contact block and pasted log or table lines. */
    private static int replyWords(List<String> above) {
        int words = 0;
        for (String line : withoutContactBlock(withoutDisclaimers(above))) {
            if (!line.isEmpty() && !isTableRow(line) && !isMoreLog(line) && !TicketText.isLog(line)) {
                words += line.split(" ").length;
            }
        }
        return words;
    }

    /** How many lines the quote header starting at {@code i} takes (0: none starts there). */
    private static int headerLength(List<String> lines, int i) {
        String line = lines.get(i);
        if (ORIGINAL.matcher(line).matches()) {
            int j = i + 1;
            while (j < lines.size() && (HEADER_NEXT.matcher(lines.get(j)).matches() || FROM.matcher(lines.get(j)).matches())) {
                j++;
            }
            return j - i;
        }
        if (WROTE_START.matcher(line).matches()) {
            if (WROTE_END.matcher(line).matches()) {
                return 1;
            }
            if (i + 1 < lines.size() && WROTE_END.matcher(line + " " + lines.get(i + 1)).matches()) {
                return 2;
            }
            return 0;
        }
        if (FROM.matcher(line).matches() && i + 1 < lines.size() && HEADER_NEXT.matcher(lines.get(i + 1)).matches()) {
            int j = i + 1;
            while (j < lines.size() && HEADER_NEXT.matcher(lines.get(j)).matches()) {
                j++;
            }
            return j - i;
        }
        return 0;
    }

    /** {@code lines} without disclaimer paragraphs. */
    static List<String> withoutDisclaimers(List<String> lines) {
        List<String> out = new ArrayList<>(lines.size());
        boolean inside = false;
        for (String line : lines) {
            if (line.isEmpty()) {
                inside = false;
            } else if (DISCLAIMER.matcher(line).lookingAt()) {
                inside = true;
            }
            if (!inside) {
                out.add(line);
            }
        }
        return out;
    }

    /** {@code lines} without a trailing block of contact lines and the short lines just above it. */
    static List<String> withoutContactBlock(List<String> lines) {
        int end = lines.size();
        while (end > 0 && lines.get(end - 1).isEmpty()) {
            end--;
        }
        int start = end;
        int contacts = 0;
        while (start > 0 && end - start < CONTACT_BLOCK) {
            String line = lines.get(start - 1);
            if (line.isEmpty() || line.length() > SHORT_LINE || SENTENCE_END.matcher(line).find()
                    || TicketText.isLog(line) || isMoreLog(line) || isTableRow(line)) {
                break;
            }
            boolean contact = CONTACT.matcher(line).find();
            if (!contact && contacts == 0) {
                break;
            }
            contacts += contact ? 1 : 0;
            start--;
        }
        return contacts == 0 || start == 0 ? lines : lines.subList(0, start);
    }

    /** Whether {@code line} is a row of a table. */
    static boolean isTableRow(String line) {
        return count(line, '|') >= 2 || count(line, '\t') >= 2 || count(line, ',') >= 2 && count(line, ' ') <= count(line, ',');
    }

    /** Whether {@code line} is a log line of a shape {@link TicketText} does not know. */
    static boolean isMoreLog(String line) {
        return !line.isEmpty() && MORE_LOGS.matcher(line).lookingAt();
    }

    private static int count(String line, char c) {
        int n = 0;
        for (int i = 0; i < line.length(); i++) {
            n += line.charAt(i) == c ? 1 : 0;
        }
        return n;
    }

    /**
     * Runs of lines {@code member} takes (blank lines inside a run belong to it) cut to {@code head} and
     * {@code tail} lines with {@code [N similar <what> left out]} between.
     */
    static List<String> runsCut(List<String> lines, Predicate<String> member, int head, int tail, String what) {
        List<String> out = new ArrayList<>(lines.size());
        int i = 0;
        while (i < lines.size()) {
            if (!member.test(lines.get(i))) {
                out.add(lines.get(i));
                i++;
                continue;
            }
            List<String> run = new ArrayList<>();
            int j = i;
            while (j < lines.size()) {
                String line = lines.get(j);
                if (member.test(line)) {
                    run.add(line);
                    j++;
                } else if (line.isEmpty() && j + 1 < lines.size() && member.test(lines.get(j + 1))) {
                    j++;
                } else {
                    break;
                }
            }
            if (run.size() > head + tail + 1) {
                out.addAll(run.subList(0, head));
                out.add(String.format(Locale.ROOT, "[%d similar %s left out]", run.size() - head - tail, what));
                out.addAll(run.subList(run.size() - tail, run.size()));
            } else {
                out.addAll(run);
            }
            i = j;
        }
        return out;
    }
}
