/* main.c - runs every unit suite (Check, under CTest). */
#include <check.h>
#include <stdlib.h>

Suite *csum_suite(void);


Suite *decode_suite(void);
Suite *verify_suite(void);
Suite *scenarios_suite(void);
Suite *gro_suite(void);
Suite *rewrite_suite(void);
Suite *rcache_suite(void);
Suite *kernel_source_suite(void);
Suite *kernel_live_suite(void);
Suite *protos_suite(void);
Suite *direction_suite(void);
Suite *addr_suite(void);
Suite *icmp_rcv_suite(void);
Suite *stops_suite(void);
Suite *fast_suite(void);
Suite *frag_rules_suite(void);
Suite *gro_ipv6_suite(void);
Suite *gro_recursion_suite(void);
Suite *gpe_suite(void);
Suite *erspan_suite(void);
Suite *pkt_type_suite(void);
Suite *ecn_suite(void);
Suite *rcv_config_suite(void);
Suite *gre_rcv_suite(void);
Suite *tx_suite(void);
Suite *l2tp_suite(void);
Suite *skb_union_suite(void);

int main(void)
{
    SRunner *sr = srunner_create(csum_suite());


    srunner_add_suite(sr, decode_suite());
    srunner_add_suite(sr, verify_suite());
    srunner_add_suite(sr, scenarios_suite());
    srunner_add_suite(sr, gro_suite());
    srunner_add_suite(sr, rewrite_suite());
    srunner_add_suite(sr, rcache_suite());
    srunner_add_suite(sr, kernel_source_suite());
    srunner_add_suite(sr, kernel_live_suite());
    srunner_add_suite(sr, protos_suite());
    srunner_add_suite(sr, direction_suite());
    srunner_add_suite(sr, addr_suite());
    srunner_add_suite(sr, icmp_rcv_suite());
    srunner_add_suite(sr, stops_suite());
    srunner_add_suite(sr, fast_suite());
    srunner_add_suite(sr, frag_rules_suite());
    srunner_add_suite(sr, gro_ipv6_suite());
    srunner_add_suite(sr, gro_recursion_suite());
    srunner_add_suite(sr, gpe_suite());
    srunner_add_suite(sr, erspan_suite());
    srunner_add_suite(sr, pkt_type_suite());
    srunner_add_suite(sr, ecn_suite());
    srunner_add_suite(sr, rcv_config_suite());
    srunner_add_suite(sr, gre_rcv_suite());
    srunner_add_suite(sr, tx_suite());
    srunner_add_suite(sr, l2tp_suite());
    srunner_add_suite(sr, skb_union_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
