/* tiny.c — the smallest program, exec'd by process-creation benchmarks in tests. */
int main(void)
{
	return 0;
}
