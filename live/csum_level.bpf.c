/*
 * csum_level.bpf.c - tc-ingress programs for the live-kernel differential
 * test (docs/kernel-diff.md). The TAP ignores VIRTIO_NET_HDR_F_DATA_VALID,
 * so a device report of CHECKSUM_UNNECESSARY with a csum_level is produced
 * here instead: each program turns a CHECKSUM_NONE skb into
 * CHECKSUM_UNNECESSARY at the level in its section name, with the helper
 * bpf_csum_level() (BPF_CSUM_LEVEL_INC from NONE gives level 0, each further
 * INC one more). It runs in __netif_receive_skb_core on the TAP, i.e. before
 * ip_rcv and (on a TAP without IFF_NAPI) with no GRO pass before it.
 *
 * Section "host" serves csumcheck --live on its tunnel devices: a frame
 * whose inner Ethernet destination is not the device's own address
 * (PACKET_OTHERHOST, which ip_rcv drops) is made PACKET_HOST, so a
 * capture's frames need not be rewritten for the receiver (the bytes an
 * outer checksum covers stay as captured).
 *
 * Self-contained on purpose: no kernel or libbpf headers, so `clang -target
 * bpf` needs nothing but clang. The numbers below are the stable UAPI values
 * of include/uapi/linux/bpf.h and pkt_cls.h.
 */
/* the first fields of the UAPI struct __sk_buff: the verifier checks
 * context reads by offset */
struct __sk_buff {
    unsigned int len;
    unsigned int pkt_type;
};

#define BPF_FUNC_skb_change_type 32  /* enum bpf_func_id */
#define BPF_FUNC_csum_level 135
#define PACKET_HOST 0                /* include/uapi/linux/if_packet.h */
#define PACKET_OTHERHOST 3
#define BPF_CSUM_LEVEL_QUERY 0
#define BPF_CSUM_LEVEL_INC 1
#define TC_ACT_OK 0

static long (*const bpf_skb_change_type)(struct __sk_buff *skb, unsigned int type) =
    (void *)BPF_FUNC_skb_change_type;
static long (*const bpf_csum_level)(struct __sk_buff *skb, unsigned long long level) =
    (void *)BPF_FUNC_csum_level;

/* QUERY answers the level when the skb is UNNECESSARY, a negative errno
 * otherwise: only a CHECKSUM_NONE skb (negative answer) is raised, so a
 * PARTIAL or COMPLETE skb is left as the TAP made it. */
static inline int set_level(struct __sk_buff *skb, int level)
{
    if (bpf_csum_level(skb, BPF_CSUM_LEVEL_QUERY) >= 0)
        return TC_ACT_OK;
    for (int i = 0; i <= level; i++)
        bpf_csum_level(skb, BPF_CSUM_LEVEL_INC);
    return TC_ACT_OK;
}

__attribute__((section("level0"), used)) int csc_level0(struct __sk_buff *skb)
{
    return set_level(skb, 0);
}

__attribute__((section("level1"), used)) int csc_level1(struct __sk_buff *skb)
{
    return set_level(skb, 1);
}

__attribute__((section("level2"), used)) int csc_level2(struct __sk_buff *skb)
{
    return set_level(skb, 2);
}

__attribute__((section("host"), used)) int csc_host(struct __sk_buff *skb)
{
    if (skb->pkt_type == PACKET_OTHERHOST)
        bpf_skb_change_type(skb, PACKET_HOST);
    return TC_ACT_OK;
}

char _license[] __attribute__((section("license"), used)) = "GPL";
