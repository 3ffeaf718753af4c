package io.quotaflow.tokens;

import java.util.function.Consumer;

/**
 * The o200k_base pre-tokenizer for text within Latin-1 (ASCII, and the accented letters of
 * Portuguese, Spanish, French, German...), without {@link java.util.regex}: the
 * same pieces, in the same order, as jtokkit's pattern
 * <pre>
 * [^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?
 * |[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?
 * |\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+
 * </pre>
 * restricted to Latin-1, where every letter is upper case ({@code Lu}) or lower case ({@code Ll})
 * once the two that are neither ({@code ª} and {@code º}, {@code Lo}, in both of the pattern's
 * letter classes) are left to the pattern, {@code \p{N}} is the digits and {@code ¹²³¼½¾}, and white
 * space is tab to carriage return, the space, NEL and the no-break space. jtokkit has such a hand-written splitter for
 * cl100k_base only; for o200k the regular expression was the larger half of the pipeline's
 * per-ticket tokenizing, which is its largest per-ticket cost. {@code TokenCounterTest} checks the
 * pieces against the pattern itself on random text. Text with any other character goes through
 * the pattern.
 */
final class Latin1O200kSplitter {

    private Latin1O200kSplitter() {
    }

    private static final byte OTHER = 0;
    private static final byte UPPER = 1;
    private static final byte LOWER = 2;
    private static final byte DIGIT = 3;
    private static final byte SPACE = 4;
    /** A character this splitter leaves to the pattern. */
    private static final byte UNSUPPORTED = 5;
    private static final byte[] CLASS = new byte[256];

    static {
        for (int c = 0; c < 256; c++) {
            CLASS[c] = classOf(c);
        }
    }

    private static byte classOf(int c) {
        int type = Character.getType(c);
        if (c == ' ' || (c >= '\t' && c <= '\r') || c == 0x85 || c == 0xA0) {
            return SPACE;
        }
        if (type == Character.UPPERCASE_LETTER || type == Character.TITLECASE_LETTER) {
            return UPPER;
        }
        if (type == Character.LOWERCASE_LETTER) {
            return LOWER;
        }
        if (type == Character.DECIMAL_DIGIT_NUMBER || type == Character.LETTER_NUMBER || type == Character.OTHER_NUMBER) {
            return DIGIT;
        }
        boolean mark = type == Character.NON_SPACING_MARK || type == Character.ENCLOSING_MARK
                || type == Character.COMBINING_SPACING_MARK;
        return Character.isLetter(c) || mark ? UNSUPPORTED : OTHER;
    }

    /** Whether {@link #split} applies to {@code text}: every character within Latin-1, none left to the pattern. */
    static boolean applies(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c >= 256 || CLASS[c] == UNSUPPORTED) {
                return false;
            }
        }
        return true;
    }

    /** Hands each piece of the ASCII {@code text} to {@code sink}, in order. */
    static void split(String text, Consumer<String> sink) {
        int n = text.length();
        int i = 0;
        while (i < n) {
            int end = piece(text, i, n);
            sink.accept(text.substring(i, end));
            i = end;
        }
    }

    /** The end of the piece starting at {@code i}: the first alternative of the pattern that matches there. */
    private static int piece(String s, int i, int n) {
        char c = s.charAt(i);
        // alternatives 1 and 2: an optional character that is no letter, digit, CR or LF, then letters
        boolean prefix = !isLetter(c) && !isDigit(c) && !isLineBreak(c) && i + 1 < n && isLetter(s.charAt(i + 1));
        int start = prefix ? i + 1 : i;
        if (isLetter(s.charAt(start))) {
            return letters(s, start, n);
        }
        if (isDigit(c)) {
            return Math.min(run(s, i, n, DIGIT), i + 3);
        }
        // 4: an optional space, then symbols, then CR, LF or '/'
        int symbols = c == ' ' && i + 1 < n && isSymbol(s.charAt(i + 1)) ? i + 1 : i;
        return isSymbol(s.charAt(symbols)) ? symbols(s, symbols, n) : whiteSpace(s, i, n);
    }

    /** 4 from its first symbol: the symbols, then any CR, LF or '/'. */
    private static int symbols(String s, int from, int n) {
        int end = from + 1;
        while (end < n && isSymbol(s.charAt(end))) {
            end++;
        }
        while (end < n && (isLineBreak(s.charAt(end)) || s.charAt(end) == '/')) {
            end++;
        }
        return end;
    }

    private static boolean isLineBreak(char c) {
        return c == '\r' || c == '\n';
    }

    /** 1: upper* lower+, or 2: upper+ lower* (upper+ is there whenever 1 has no lower case), then a contraction. */
    private static int letters(String s, int start, int n) {
        return contraction(s, run(s, run(s, start, n, UPPER), n, LOWER), n);
    }

    /** The end of the run of characters of class {@code k} from {@code from}. */
    private static int run(String s, int from, int n, byte k) {
        int end = from;
        while (end < n && CLASS[s.charAt(end)] == k) {
            end++;
        }
        return end;
    }

    /** White space from {@code i}: alternatives 5, 6 and 7. */
    private static int whiteSpace(String s, int i, int n) {
        int run = run(s, i, n, SPACE);
        // 5: white space up to its last CR or LF
        for (int j = run - 1; j >= i; j--) {
            if (isLineBreak(s.charAt(j))) {
                return j + 1;
            }
        }
        // 6: white space not followed by a non-space (all of it at the end, else all but the last);
        // 7: else the single white space character
        return run == n || run - i < 2 ? run : run - 1;
    }

    /** The optional {@code 's 't 're 've 'm 'll 'd} (any case) after letters ending at {@code end}. */
    private static int contraction(String s, int end, int n) {
        if (end + 1 >= n || s.charAt(end) != '\'') {
            return end;
        }
        char a = Character.toLowerCase(s.charAt(end + 1));
        if (a == 's' || a == 't' || a == 'm' || a == 'd') {
            return end + 2;
        }
        if (end + 2 < n) {
            char b = Character.toLowerCase(s.charAt(end + 2));
            if ((a == 'r' && b == 'e') || (a == 'v' && b == 'e') || (a == 'l' && b == 'l')) {
                return end + 3;
            }
        }
        return end;
    }

    private static boolean isUpper(char c) {
        return CLASS[c] == UPPER;
    }

    private static boolean isLower(char c) {
        return CLASS[c] == LOWER;
    }

    private static boolean isLetter(char c) {
        return isUpper(c) || isLower(c);
    }

    private static boolean isDigit(char c) {
        return CLASS[c] == DIGIT;
    }

    private static boolean isSpace(char c) {
        return CLASS[c] == SPACE;
    }

    /** Neither white space, a letter nor a digit. */
    private static boolean isSymbol(char c) {
        return !isSpace(c) && !isLetter(c) && !isDigit(c);
    }
}
