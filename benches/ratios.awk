# Summarises timed ratios, for benches/paired.sh and benches/share.sh: reads lines whose first
# field names a variant and whose last field is a ratio, prints them as they come, then per
# variant the geometric mean of the ratios and its 95% confidence interval (Student's t on the
# logarithms, so the interval is the spread of the runs, not only their number). On a machine
# that drifts, an interval that straddles a target says that the runs cannot tell.
#
#   awk -v label=B/A -f benches/ratios.awk
{
    print
    n[$1]++; x = log($NF); sum[$1] += x; squares[$1] += x * x
}
END {
    # t quantiles (0.975) for 1 to 30 degrees of freedom; 1.96 beyond.
    split("12.706 4.303 3.182 2.776 2.571 2.447 2.365 2.306 2.262 2.228 2.201 2.179 2.160 2.145 2.131 2.120 2.110 2.101 2.093 2.086 2.080 2.074 2.069 2.064 2.060 2.056 2.052 2.048 2.045 2.042", t, " ")
    for (v in n) {
        mean = sum[v] / n[v]
        if (n[v] < 2) {
            printf "%s geometric mean %s %.3f over 1 run\n", v, label, exp(mean)
            continue
        }
        sd = sqrt((squares[v] - n[v] * mean * mean) / (n[v] - 1))
        q = n[v] - 1 <= 30 ? t[n[v] - 1] : 1.96
        half = q * sd / sqrt(n[v])
        printf "%s geometric mean %s %.3f (95%% interval %.3f to %.3f) over %d runs\n", v, label, exp(mean), exp(mean - half), exp(mean + half), n[v]
    }
}
