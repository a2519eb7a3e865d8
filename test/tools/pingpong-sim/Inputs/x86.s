	.text
	movq %rax, %rbx
	ret
